import Foundation

extension PlanExport {
    /// The printed page's look, inlined in every HTML export so the page needs nothing from outside.
    static let stylesheet = """
        :root { color-scheme: light; }
        body { font-family: Georgia, "Times New Roman", serif; line-height: 1.45; color: #111; background: #fff; }
        body { margin: 2rem auto; max-width: 48rem; padding: 0 1rem; }
        h1 { font-size: 1.6rem; margin-bottom: 0.4rem; }
        h2 { font-size: 1.2rem; margin: 1.4rem 0 0.4rem; border-bottom: 1px solid #ccc; padding-bottom: 0.15rem; }
        h3 { font-size: 1.05rem; margin: 1rem 0 0.3rem; }
        table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
        th, td { border: 1px solid #bbb; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
        .pacing-table { font-size: 0.85rem; margin: 0.3rem 0 0.6rem; }
        .pacing-table th, .pacing-table td { padding: 0.1rem 0.4rem; }
        .inputs { font-size: 0.9rem; color: #333; }
        .inputs span { white-space: nowrap; }
        .inputs span.long { white-space: normal; }
        .version { margin: 0 0 0.8rem; color: #333; }
        .teacher-note { border-left: 4px solid #b07a00; padding: 0.2rem 0.6rem; background: #fff7e0; }
        .banner { border: 2px solid #b00020; background: #fdecee; padding: 0.4rem 0.9rem; margin: 0.6rem 0 1rem; }
        .banner p { margin: 0.2rem 0; color: #7a0015; }
        .banner ul { margin: 0.2rem 0 0.3rem; }
        .plan-title { font-weight: bold; }
        .choice { margin: 0.1rem 0 0.1rem 2.2rem; }
        .pacing-table tr.lesson-end td { border-top: 3px solid #b00020; font-weight: bold; color: #7a0015; }
        .pacing-table tr.over td { background: #fbe3e3; }
        .pacing-notes { margin: 0.3rem 0 1rem; }
        .timeline { margin: 0.5rem 0 0.5rem; }
        .timeline-row { display: flex; align-items: center; margin: 0.2rem 0; }
        .timeline-label { flex: 0 0 14rem; font-size: 0.9rem; padding-right: 0.5rem; }
        .timeline-track { position: relative; flex: 1 1 auto; height: 1rem; background: #eee; }
        .timeline-bar { position: absolute; top: 0; bottom: 0; background: #3a7d44; }
        .timeline-over { background: repeating-linear-gradient(45deg, #b00020 0 4px, #f2b8c0 4px 8px); }
        .timeline-end { position: absolute; top: -0.25rem; bottom: -0.25rem; width: 0; border-left: 2px solid #b00020; }
        .timeline-scale { position: relative; flex: 1 1 auto; height: 1.2rem; font-size: 0.8rem; }
        .axis-start { position: absolute; left: 0; }
        .axis-end { position: absolute; margin-left: -0.35rem; white-space: nowrap; color: #7a0015; }
        .axis-end-left { margin-left: 0; margin-right: -0.35rem; }
        .write-in { display: flex; gap: 1.5rem; margin: 0.6rem 0 1rem; }
        .write-in span { flex: 1 1 auto; display: flex; align-items: flex-end; }
        .write-in span:first-child { flex-grow: 2; }
        .write-in i { flex: 1 1 auto; border-bottom: 1px solid #333; margin-left: 0.4rem; height: 1.2rem; }
        .write { margin: 0.2rem 0 0.6rem; }
        .write i { display: block; height: 1.9rem; border-bottom: 1px solid #999; }
        footer { margin-top: 1.5rem; font-size: 0.8rem; color: #555; border-top: 1px solid #ccc; padding-top: 0.3rem; break-before: avoid; page-break-before: avoid; }
        body.handout li { margin-bottom: 0.4rem; }
        .quiz ol[type="A"] { margin: 0.2rem 0 0.6rem; }
        .rubric-table th[scope="row"] { width: 20%; background: #f3f3f3; }
        .teacher-table th[scope="row"] { width: 22%; background: #f3f3f3; }
        .teacher-table tr.marked td { background: #fff4e5; }
        .teacher-table .caveat, .teacher-table .source { font-size: 0.9rem; color: #444; }
        .answer-key, .quiz { break-before: page; page-break-before: always; }
        body.handout .quiz-starter { break-before: auto; page-break-before: auto; break-after: page; page-break-after: always; }
        .slip { border: 2px dashed #555; padding: 0.2rem 0.8rem 0.6rem; margin-top: 1.2rem; }
        .failed-check { border-left: 4px solid #b00020; padding: 0.2rem 0.6rem; background: #fdecee; color: #7a0015; }
        @media print {
          body { margin: 0; max-width: none; font-size: 11pt; }
          h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
          p, li { orphans: 3; widows: 3; }
          table, tr, li, .timeline-row, .timeline-section, .banner, .slip, .kept, .quiz-item, .failed-check {
            break-inside: avoid; page-break-inside: avoid;
          }
          .timeline-track, .timeline-bar, .timeline-end, .banner, .pacing-table tr.over td {
            -webkit-print-color-adjust: exact; print-color-adjust: exact;
          }
        }
        """
}
