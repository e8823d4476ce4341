import Foundation

/// One timed section placed on the lesson's clock, for a terminal timeline or an HTML pacing table.
package struct PacingSegment: Codable, Equatable, Hashable, Sendable {
    /// The expected heading of the section.
    package var heading: String
    /// Minutes into the lesson when the section starts.
    package var start: Int
    /// Minutes into the lesson when the section ends.
    package var end: Int
    /// Whether the plan states this start and end (`5–17 min`); false when only a length was given and the
    /// section was placed after the one before.
    package var stated: Bool

    package init(heading: String, start: Int, end: Int, stated: Bool = false) {
        self.heading = heading
        self.start = start
        self.end = end
        self.stated = stated
    }

    /// How long the section takes.
    package var minutes: Int { end - start }

    private enum CodingKeys: String, CodingKey {
        case heading, start, end, stated
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        heading = try container.decode(String.self, forKey: .heading)
        start = try container.decode(Int.self, forKey: .start)
        end = try container.decode(Int.self, forKey: .end)
        stated = try container.decodeIfPresent(Bool.self, forKey: .stated) ?? false
    }
}

/// Something about a plan's timing a teacher should see next to the timeline.
package enum PacingNote: Equatable, Sendable, CustomStringConvertible {
    /// No section fills the minutes between two stated times.
    case gap(after: String?, before: String, from: Int, to: Int)
    /// Two sections claim the same minutes.
    case overlap(first: String, second: String, from: Int, to: Int)
    /// The plan runs past the end of the lesson.
    case overrun(lessonMinutes: Int, end: Int)

    package var description: String {
        switch self {
        case .gap(let after, let before, let from, let to):
            if let after {
                "Gap: nothing is planned from \(from) to \(to) min, between \(after) and \(before)."
            } else {
                "Gap: nothing is planned from \(from) to \(to) min, before \(before)."
            }
        case .overlap(let first, let second, let from, let to):
            "Overlap: \(first) and \(second) both claim \(from)–\(to) min."
        case .overrun(let lesson, let end):
            "Runs over: the plan ends at \(end) min, \(end - lesson) min past the lesson's end at \(lesson)."
        }
    }
}

/// Places timed sections on the lesson's clock: where the plan states times, there; otherwise one after another.
package enum Pacing {
    /// Timed sections in plan order: at their stated start and end, or, with only a length, after the one before.
    /// - Parameters:
    ///   - sections: The plan's sections; those without minutes are skipped.
    ///   - excluded: Headings whose time is spent outside the lesson, such as homework.
    package static func segments(of sections: [PlanSection], excluding excluded: Set<String> = []) -> [PacingSegment] {
        var clock = 0
        var segments: [PacingSegment] = []
        for section in sections where !excluded.contains(section.heading) {
            guard let minutes = section.minutes else { continue }
            if let start = section.start, let end = section.end, end > start {
                segments.append(PacingSegment(heading: section.heading, start: start, end: end, stated: true))
                clock = end
            } else {
                segments.append(PacingSegment(heading: section.heading, start: clock, end: clock + minutes))
                clock += minutes
            }
        }
        return segments
    }

    /// The timed sections of a plan document.
    package static func segments(of document: PlanDocument, excluding excluded: Set<String> = []) -> [PacingSegment] {
        segments(of: document.sections, excluding: excluded)
    }

    /// The minutes all timed sections add up to, or nil when no section names a time.
    package static func total(of sections: [PlanSection], excluding excluded: Set<String> = []) -> Int? {
        let timed = sections.filter { !excluded.contains($0.heading) }.compactMap(\.minutes)
        return timed.isEmpty ? nil : timed.reduce(0, +)
    }

    /// How the times were placed, when the plan does not state them all; nil when it does.
    package static func placementNote(_ segments: [PacingSegment]) -> String? {
        guard segments.contains(where: { !$0.stated }) else { return nil }
        if segments.contains(where: { $0.stated }) {
            return "* placed after the section before; the plan gives only a length."
        }
        return "The plan gives lengths, not times, so each section is placed after the one before."
    }

    /// Whether a segment's range is starred: placed, in a plan that states other times.
    package static func isStarred(_ segment: PacingSegment, in segments: [PacingSegment]) -> Bool {
        !segment.stated && segments.contains { $0.stated }
    }

    /// Gaps and overlaps between neighbouring sections, then any run past the lesson's end.
    package static func notes(_ segments: [PacingSegment], lessonMinutes: Int) -> [PacingNote] {
        var notes: [PacingNote] = []
        var previous: PacingSegment?
        for segment in segments {
            let before = previous?.end ?? 0
            if segment.start > before {
                notes.append(.gap(after: previous?.heading, before: segment.heading, from: before, to: segment.start))
            } else if let previous, segment.start < before {
                notes.append(
                    .overlap(
                        first: previous.heading, second: segment.heading, from: segment.start,
                        to: min(before, segment.end)))
            }
            previous = segment
        }
        if let end = segments.map(\.end).max(), end > lessonMinutes {
            notes.append(.overrun(lessonMinutes: lessonMinutes, end: end))
        }
        return notes
    }
}
