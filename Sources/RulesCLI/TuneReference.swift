import RulesPopulation
import RulesTune
import Ruleset

/// The reference's section on `rules tune`: the shipped ruleset's knobs and the metrics a
/// target or an objective may name, written from the code.
enum TuneReference {
    static func markdown(_ load: RulesetLoad) -> String {
        guard let ruleset = load.ruleset else { return "" }
        let catalogue = KnobCatalogue(ruleset: ruleset, documents: load.documents, sources: load.sources)
        var out = """

            ## Tune: knobs and metrics

            `rules tune POP --vary KNOB=RANGE …` varies these knobs of the shipped ruleset
            (`rules tune --list-knobs` lists any ruleset's). A knob is named as below or by
            `FILE:LINE` when the line holds one value. A range is `A..B/STEP` (whole numbers
            step by 1 unless told; times and durations take a duration step such as `/30m`) or
            a list `2,3,5`; every value must lie within the bounds.

            | knob | where | now | bounds | what |
            |---|---|---|---|---|

            """
        for knob in catalogue.knobs {
            out += "| `\(knob.name)` | \(knob.place) | `\(knob.literal(knob.current))` | \(knob.boundsText) | \(Reference.cell(knob.what)) |\n"
        }
        out += """

            Targets (`--target 'METRIC OP VALUE'`, OP one of `<=`, `<`, `>=`, `>`) and the
            objective (`--maximise` or `--minimise`) name a metric of the population report.
            A count is shown for the whole population asked for (the mean per user × `--users`);
            a share is 0 to 1 (a target may write `10%`); `.p50`, `.p90` and `.p99` are quantiles
            of a histogram, with bootstrap intervals over users; `.max` has no interval (more
            users can only raise it: a target on it is judged by the users lived). Besides the report's
            names, tune reads `busiest_day.at_least_N.share` (users with a day of N or more
            notices, any N from 1), `answers.opted_out_all.share` and
            `answers.by_type.TYPE.opted_out.share` (users who switched notices off), and each
            group's `groups.NAME.…`. The names for the shipped ruleset (with a population whose
            users answer):

            | metric | in words |
            |---|---|

            """
        for name in PopulationMetric.names(ruleset: ruleset, groups: [], answers: true) {
            out += "| `\(name)` | \(Reference.cell(MetricWords.words(name))) |\n"
        }
        return out
    }
}
