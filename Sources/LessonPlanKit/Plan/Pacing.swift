import Foundation

/// One timed section placed on the lesson's clock, for a terminal timeline or an HTML pacing table.
public struct PacingSegment: Codable, Equatable, Hashable, Sendable {
    /// The expected heading of the section.
    public var heading: String
    /// Minutes into the lesson when the section starts.
    public var start: Int
    /// Minutes into the lesson when the section ends.
    public var end: Int

    public init(heading: String, start: Int, end: Int) {
        self.heading = heading
        self.start = start
        self.end = end
    }

    /// How long the section takes.
    public var minutes: Int { end - start }
}

/// Lays timed sections end to end, because a plan's pacing is the sum of its section times.
public enum Pacing {
    /// Timed sections in plan order, each starting where the previous one ended.
    /// - Parameters:
    ///   - sections: The plan's sections; those without minutes are skipped.
    ///   - excluded: Headings whose time is spent outside the lesson, such as homework.
    public static func segments(of sections: [PlanSection], excluding excluded: Set<String> = []) -> [PacingSegment] {
        var clock = 0
        var segments: [PacingSegment] = []
        for section in sections where !excluded.contains(section.heading) {
            guard let minutes = section.minutes else { continue }
            segments.append(PacingSegment(heading: section.heading, start: clock, end: clock + minutes))
            clock += minutes
        }
        return segments
    }

    /// The minutes all timed sections add up to, or nil when no section names a time.
    public static func total(of sections: [PlanSection], excluding excluded: Set<String> = []) -> Int? {
        segments(of: sections, excluding: excluded).last?.end
    }
}
