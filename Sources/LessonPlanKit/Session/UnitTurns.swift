import Foundation

/// A unit's overview: kept as the turn's output; the engine reads and checks it (``UnitPlan``) and writes the
/// `unit` line for the one it takes, so the product itself numbers nothing.
enum OverviewProduct: TurnProduct {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        ProductVerdict()
    }
}
