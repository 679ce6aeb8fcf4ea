-- Spark SQL: the rows of features.sql's tables as one JSON object a user (the features format,
-- version 1), written by `to_json` with its NULLs kept: maps from the (key, value) structs sorted by key,
-- and the sums the reader adds in line order (a log's values, a day's steps) added in that order
-- with `aggregate` over the sorted list. A user without a map has `{}`, without a list `[]`.

-- @table use_maps
SELECT u, kind, map_from_entries(array_sort(collect_list(struct(routine, array(CAST(days AS DOUBLE), CAST(n AS DOUBLE), value, CAST(minutes AS DOUBLE),
    CAST(minutes2 AS DOUBLE)))))) AS m
FROM (
    SELECT c.u AS u, c.kind AS kind, c.routine AS routine, c.days AS days, c.n AS n, v.value AS value, c.minutes AS minutes, c.minutes2 AS minutes2
    FROM use_counts c
    JOIN (
        SELECT u, kind, routine, aggregate(array_sort(collect_list(struct(o, value))), 0D, (a, p) -> a + p.value) AS value
        FROM own GROUP BY u, kind, routine
    ) v ON v.u = c.u AND v.kind = c.kind AND v.routine = c.routine
) x GROUP BY u, kind;

-- @table steps
SELECT u, array(CAST(size(s) AS DOUBLE), aggregate(s, 0D, (a, p) -> a + p.x), aggregate(s, 0D, (a, p) -> a + p.x * p.x)) AS steps
FROM (SELECT u, array_sort(collect_list(struct(day, x))) AS s FROM stepdays GROUP BY u) y;

-- Each map of a user: a JSON object from the (key, value) structs sorted by key.

-- @table opens_m
SELECT u, map_from_entries(transform(array_sort(collect_list(struct(bin AS k, n AS v))), p -> struct(CAST(p.k AS STRING) AS k, p.v AS v))) AS m
FROM open_bins GROUP BY u;

-- @table open_minutes_m
SELECT u, map_from_entries(transform(array_sort(collect_list(struct(bin AS k, CAST(minutes AS DOUBLE) AS v))), p -> struct(CAST(p.k AS STRING) AS k, p.v AS v))) AS m
FROM open_bins GROUP BY u;

-- @table ignored_types_m
SELECT u, map_from_entries(array_sort(collect_list(struct(type AS k, n AS v)))) AS m FROM ignored_types GROUP BY u;

-- @table route_days_m
SELECT u, map_from_entries(array_sort(collect_list(struct(route AS k, n AS v)))) AS m FROM route_days GROUP BY u;

-- @table result_days_m
SELECT u, map_from_entries(array_sort(collect_list(struct(result AS k, n AS v)))) AS m FROM result_days GROUP BY u;

-- @table set_on_m
SELECT u, map_from_entries(array_sort(collect_list(struct(name AS k, v = 1 AS v)))) AS m FROM set_on GROUP BY u;

-- @table set_choice_m
SELECT u, map_from_entries(array_sort(collect_list(struct(name AS k, v AS v)))) AS m FROM set_choice GROUP BY u;

-- @table set_at_m
SELECT u, map_from_entries(array_sort(collect_list(struct(name AS k, v AS v)))) AS m FROM set_at GROUP BY u;

-- @table seen_m
SELECT u, map_from_entries(array_sort(collect_list(struct(type AS k, n AS v)))) AS m FROM seen GROUP BY u;

-- @table unknown_m
SELECT u, map_from_entries(array_sort(collect_list(struct(kind AS k, n AS v)))) AS m FROM unknown GROUP BY u;

-- @table trial_m
SELECT u, map_from_entries(array_sort(collect_list(struct(type AS k, bins AS v)), (l, r) -> CASE WHEN l.k < r.k THEN -1 WHEN l.k > r.k THEN 1 ELSE 0 END)) AS m
FROM (
    SELECT u, type,
        map_from_entries(transform(array_sort(collect_list(struct(bin AS k, array(delivered_n, delivered_done, withheld_n, withheld_done) AS v))),
            p -> struct(CAST(p.k AS STRING) AS k, p.v AS v))) AS bins
    FROM trial_cells GROUP BY u, type
) x GROUP BY u;

-- @table switched_m
SELECT u, array_sort(collect_list(type)) AS m FROM switches GROUP BY u;

-- @table enabled_m
SELECT u, array_sort(collect_list(routine)) AS m FROM enabled GROUP BY u;

-- One JSON object a user, the columns in the format's order.
-- @table features
SELECT users.u AS u, to_json(named_struct(
    'features', 1, 'user', users.u, 'ruleset', users.ruleset, 'first_day', users.first_day, 'last_day', users.last_day, 'days', users.days,
    'opens', coalesce(opens_m.m, map()), 'open_minutes', coalesce(open_minutes_m.m, map()),
    'logs', coalesce(logs.m, map()), 'ticks', coalesce(ticks.m, map()),
    'deliveries', coalesce(places.deliveries, 0), 'withheld', coalesce(places.withheld, 0),
    'opened', coalesce(answers.opened, 0) - coalesce(conversions.n, 0), 'ignored', coalesce(answers.ignored, 0),
    'acted', coalesce(answers.acted, 0) + coalesce(conversions.n, 0), 'skips', coalesce(skips.n, 0),
    'steps_granted', health.steps_granted = 1, 'sleep_granted', health.sleep_granted = 1,
    'sleep', array(CAST(coalesce(health.sleep_n, 0) AS DOUBLE), coalesce(health.sleep_sum, 0D), coalesce(health.sleep_sq, 0D)),
    'wake', array(CAST(coalesce(health.wake_n, 0) AS DOUBLE), coalesce(health.wake_sum, 0D), coalesce(health.wake_sq, 0D)),
    'steps', coalesce(steps.steps, array(0D, 0D, 0D)),
    'ignored_by_type', coalesce(ignored_types_m.m, map()), 'switched_off', coalesce(switched_m.m, array()),
    'route_days', coalesce(route_days_m.m, map()), 'result_days', coalesce(result_days_m.m, map()),
    'trial', coalesce(trial_m.m, map()), 'ran', users.ran = 1, 'enabled', enabled_m.m,
    'set_on', coalesce(set_on_m.m, map()), 'set_choice', coalesce(set_choice_m.m, map()), 'set_at', coalesce(set_at_m.m, map()),
    'notices_off', off_after.off = 1, 'notices_off_after', off_after.place,
    'exposures', array(coalesce(exposures.e1, 0), coalesce(exposures.e2, 0), coalesce(exposures.e3, 0), coalesce(exposures.e4, 0), coalesce(exposures.e5, 0)),
    'delivered_by_place', array(coalesce(places.d0, 0), coalesce(places.d1, 0), coalesce(places.d2, 0), coalesce(places.d3, 0)),
    'ignored_by_place', array(coalesce(ignored_places.i0, 0), coalesce(ignored_places.i1, 0), coalesce(ignored_places.i2, 0), coalesce(ignored_places.i3, 0)),
    'seen_by_type', coalesce(seen_m.m, map()), 'unknown_kinds', coalesce(unknown_m.m, map())
), map('ignoreNullFields', 'false')) AS row
FROM users
LEFT JOIN opens_m ON opens_m.u = users.u LEFT JOIN open_minutes_m ON open_minutes_m.u = users.u
LEFT JOIN (SELECT u, m FROM use_maps WHERE kind = 'log') logs ON logs.u = users.u
LEFT JOIN (SELECT u, m FROM use_maps WHERE kind = 'tick') ticks ON ticks.u = users.u
LEFT JOIN places ON places.u = users.u LEFT JOIN answers ON answers.u = users.u LEFT JOIN conversions ON conversions.u = users.u
LEFT JOIN skips ON skips.u = users.u LEFT JOIN health ON health.u = users.u LEFT JOIN steps ON steps.u = users.u
LEFT JOIN ignored_types_m ON ignored_types_m.u = users.u LEFT JOIN switched_m ON switched_m.u = users.u
LEFT JOIN route_days_m ON route_days_m.u = users.u LEFT JOIN result_days_m ON result_days_m.u = users.u
LEFT JOIN trial_m ON trial_m.u = users.u LEFT JOIN enabled_m ON enabled_m.u = users.u
LEFT JOIN set_on_m ON set_on_m.u = users.u LEFT JOIN set_choice_m ON set_choice_m.u = users.u LEFT JOIN set_at_m ON set_at_m.u = users.u
LEFT JOIN off_after ON off_after.u = users.u LEFT JOIN exposures ON exposures.u = users.u
LEFT JOIN ignored_places ON ignored_places.u = users.u LEFT JOIN seen_m ON seen_m.u = users.u LEFT JOIN unknown_m ON unknown_m.u = users.u;
