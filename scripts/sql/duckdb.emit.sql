-- DuckDB: the rows of features.sql's tables as one JSON object a user (the features format,
-- version 1): maps from `map_from_entries` over sorted entries, lists, and the sums the reader
-- adds in line order (a log's values, a day's steps), added in that order with `list_reduce`.

-- @table use_maps
SELECT u, kind, map_from_entries(list({'k': routine, 'v': [days, n, value, minutes, minutes2]} ORDER BY routine)) AS m
FROM (
    SELECT c.u, c.kind, c.routine, c.days::DOUBLE AS days, c.n::DOUBLE AS n, v.value, c.minutes::DOUBLE AS minutes, c.minutes2::DOUBLE AS minutes2
    FROM use_counts c
    JOIN (SELECT u, kind, routine, list_reduce(list(value ORDER BY o), lambda a, b: a + b) AS value FROM own GROUP BY u, kind, routine) v
        ON v.u = c.u AND v.kind = c.kind AND v.routine = c.routine
) GROUP BY u, kind;

-- @table steps
SELECT u, [count(*)::DOUBLE, list_reduce(list(x ORDER BY day), lambda a, b: a + b), list_reduce(list(x * x ORDER BY day), lambda a, b: a + b)] AS steps
FROM stepdays GROUP BY u;

-- @table features
SELECT users.u, json_object(
    'features', 1, 'user', users.u, 'ruleset', users.ruleset, 'first_day', users.first_day, 'last_day', users.last_day,
    'days', users.days,
    'opens', coalesce((SELECT to_json(map_from_entries(list({'k': bin::VARCHAR, 'v': n} ORDER BY bin))) FROM open_bins b WHERE b.u = users.u), '{}'::JSON),
    'open_minutes',
    coalesce((SELECT to_json(map_from_entries(list({'k': bin::VARCHAR, 'v': minutes::DOUBLE} ORDER BY bin))) FROM open_bins b WHERE b.u = users.u), '{}'::JSON),
    'logs', coalesce((SELECT to_json(m) FROM use_maps WHERE use_maps.u = users.u AND kind = 'log'), '{}'::JSON),
    'ticks', coalesce((SELECT to_json(m) FROM use_maps WHERE use_maps.u = users.u AND kind = 'tick'), '{}'::JSON),
    'deliveries', coalesce(places.deliveries, 0), 'withheld', coalesce(places.withheld, 0),
    'opened', coalesce(answers.opened, 0) - coalesce(conversions.n, 0), 'ignored', coalesce(answers.ignored, 0),
    'acted', coalesce(answers.acted, 0) + coalesce(conversions.n, 0), 'skips', coalesce(skips.n, 0),
    'steps_granted', health.steps_granted = 1, 'sleep_granted', health.sleep_granted = 1,
    'sleep', [coalesce(health.sleep_n, 0), coalesce(health.sleep_sum, 0), coalesce(health.sleep_sq, 0)],
    'wake', [coalesce(health.wake_n, 0), coalesce(health.wake_sum, 0), coalesce(health.wake_sq, 0)],
    'steps', coalesce(steps.steps, [0, 0, 0]),
    'ignored_by_type', coalesce((SELECT to_json(map_from_entries(list({'k': type, 'v': n} ORDER BY type))) FROM ignored_types x WHERE x.u = users.u), '{}'::JSON),
    'switched_off', coalesce((SELECT to_json(list(type ORDER BY type)) FROM switches WHERE switches.u = users.u), '[]'::JSON),
    'route_days', coalesce((SELECT to_json(map_from_entries(list({'k': route, 'v': n} ORDER BY route))) FROM route_days x WHERE x.u = users.u), '{}'::JSON),
    'result_days', coalesce((SELECT to_json(map_from_entries(list({'k': result, 'v': n} ORDER BY result))) FROM result_days x WHERE x.u = users.u), '{}'::JSON),
    'trial', coalesce((
        SELECT to_json(map_from_entries(list({'k': type, 'v': bins} ORDER BY type)))
        FROM (
            SELECT type, map_from_entries(list({'k': bin::VARCHAR, 'v': [delivered_n, delivered_done, withheld_n, withheld_done]} ORDER BY bin)) AS bins
            FROM trial_cells c WHERE c.u = users.u GROUP BY type
        )), '{}'::JSON),
    'ran', users.ran = 1,
    'enabled', (SELECT to_json(list(routine ORDER BY routine)) FROM enabled x WHERE x.u = users.u),
    'set_on', coalesce((SELECT to_json(map_from_entries(list({'k': name, 'v': v = 1} ORDER BY name))) FROM set_on x WHERE x.u = users.u), '{}'::JSON),
    'set_choice', coalesce((SELECT to_json(map_from_entries(list({'k': name, 'v': v} ORDER BY name))) FROM set_choice x WHERE x.u = users.u), '{}'::JSON),
    'set_at', coalesce((SELECT to_json(map_from_entries(list({'k': name, 'v': v} ORDER BY name))) FROM set_at x WHERE x.u = users.u), '{}'::JSON),
    'notices_off', off_after.off = 1, 'notices_off_after', off_after.place,
    'exposures', [coalesce(exposures.e1, 0), coalesce(exposures.e2, 0), coalesce(exposures.e3, 0), coalesce(exposures.e4, 0), coalesce(exposures.e5, 0)],
    'delivered_by_place', [coalesce(places.d0, 0), coalesce(places.d1, 0), coalesce(places.d2, 0), coalesce(places.d3, 0)],
    'ignored_by_place', [coalesce(ignored_places.i0, 0), coalesce(ignored_places.i1, 0), coalesce(ignored_places.i2, 0), coalesce(ignored_places.i3, 0)],
    'seen_by_type', coalesce((SELECT to_json(map_from_entries(list({'k': type, 'v': n} ORDER BY type))) FROM seen x WHERE x.u = users.u), '{}'::JSON),
    'unknown_kinds', coalesce((SELECT to_json(map_from_entries(list({'k': kind, 'v': n} ORDER BY kind))) FROM unknown x WHERE x.u = users.u), '{}'::JSON)
) AS row
FROM users
LEFT JOIN places USING (u) LEFT JOIN answers USING (u) LEFT JOIN conversions USING (u) LEFT JOIN skips USING (u)
LEFT JOIN health USING (u) LEFT JOIN steps USING (u) LEFT JOIN off_after USING (u) LEFT JOIN exposures USING (u)
LEFT JOIN ignored_places USING (u);
