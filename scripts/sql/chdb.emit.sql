-- ClickHouse (chDB): the rows of features.sql's tables as one JSON object a user (the features
-- format, version 1), put together from `toJSONString` of each map and array: maps from the
-- (key, value) pairs sorted by key, and the sums the reader adds in line order (a log's values, a
-- day's steps) added in that order with `arrayFold`. ClickHouse has no NULL map or array, so the
-- last join fills what a user lacks with the type's empty value (`join_use_nulls = 0`) and the
-- row says `{}`, `[]` or `null` where the user's key is empty.

-- @table use_maps
SELECT u, kind, mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s)) AS m
FROM (
    SELECT u, kind, arraySort(groupArray((routine, [toFloat64(days), toFloat64(n), value, toFloat64(minutes), toFloat64(minutes2)]))) AS s
    FROM (
        SELECT c.u AS u, c.kind AS kind, assumeNotNull(c.routine) AS routine, c.days AS days, c.n AS n, v.value AS value, c.minutes AS minutes,
            c.minutes2 AS minutes2
        FROM use_counts c
        JOIN (
            SELECT u, kind, routine, arrayFold((a, p) -> a + p.2, arraySort(groupArray((o, assumeNotNull(value)))), toFloat64(0)) AS value
            FROM own GROUP BY u, kind, routine
        ) v ON v.u = c.u AND v.kind = c.kind AND v.routine = c.routine
    ) GROUP BY u, kind
);

-- @table steps
SELECT u, [toFloat64(length(s)), arrayFold((a, p) -> a + p.2, s, toFloat64(0)), arrayFold((a, p) -> a + p.2 * p.2, s, toFloat64(0))] AS steps
FROM (SELECT u, arraySort(groupArray((day, assumeNotNull(x)))) AS s FROM stepdays GROUP BY u);

-- Each map of a user: a JSON object from the (key, value) pairs sorted by key.

-- @table opens_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arrayMap(p -> (toString(p.1), p.2), arraySort(groupArray((bin, toUInt64(n))))) AS s FROM open_bins GROUP BY u);

-- @table open_minutes_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arrayMap(p -> (toString(p.1), p.2), arraySort(groupArray((bin, toFloat64(minutes))))) AS s FROM open_bins GROUP BY u);

-- @table ignored_types_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(type), toUInt64(n)))) AS s FROM ignored_types GROUP BY u);

-- @table route_days_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(route), toUInt64(n)))) AS s FROM route_days GROUP BY u);

-- @table result_days_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(result), toUInt64(n)))) AS s FROM result_days GROUP BY u);

-- @table set_on_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(name), CAST(v = 1 AS Bool)))) AS s FROM set_on GROUP BY u);

-- @table set_choice_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(name), assumeNotNull(v)))) AS s FROM set_choice GROUP BY u);

-- @table set_at_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(name), toInt64(v)))) AS s FROM set_at GROUP BY u);

-- @table seen_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(type), toUInt64(n)))) AS s FROM seen GROUP BY u);

-- @table unknown_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (SELECT u, arraySort(groupArray((assumeNotNull(kind), toUInt64(n)))) AS s FROM unknown GROUP BY u);

-- @table trial_m
SELECT u, toJSONString(mapFromArrays(arrayMap(p -> p.1, s), arrayMap(p -> p.2, s))) AS j
FROM (
    SELECT u, arraySort(groupArray((assumeNotNull(type), bins))) AS s
    FROM (
        SELECT u, type, mapFromArrays(arrayMap(p -> toString(p.1), c), arrayMap(p -> p.2, c)) AS bins
        FROM (
            SELECT u, type,
                arraySort(groupArray((bin, [toUInt64(delivered_n), toUInt64(delivered_done), toUInt64(withheld_n), toUInt64(withheld_done)]))) AS c
            FROM trial_cells GROUP BY u, type
        )
    ) GROUP BY u
);

-- @table lists_m
SELECT u, toJSONString(arraySort(groupArray(assumeNotNull(type)))) AS switched_off, '' AS enabled FROM switches GROUP BY u
UNION ALL
SELECT u, '' AS switched_off, toJSONString(arraySort(groupArray(assumeNotNull(routine)))) AS enabled FROM enabled GROUP BY u;

-- One JSON object a user, the columns in the format's order (a user without a map has `{}`).
-- @table features
SELECT users.u AS u, concat(
    '{"features":1,"user":', toJSONString(users.u), ',"ruleset":', toJSONString(users.ruleset),
    ',"first_day":', toString(users.first_day), ',"last_day":', toString(users.last_day), ',"days":', toString(users.days),
    ',"opens":', if(opens_m.u = '', '{}', opens_m.j), ',"open_minutes":', if(open_minutes_m.u = '', '{}', open_minutes_m.j),
    ',"logs":', if(logs.u = '', '{}', toJSONString(logs.m)), ',"ticks":', if(ticks.u = '', '{}', toJSONString(ticks.m)),
    ',"deliveries":', toString(places.deliveries), ',"withheld":', toString(places.withheld),
    ',"opened":', toString(toInt64(answers.opened) - toInt64(conversions.n)), ',"ignored":', toString(answers.ignored),
    ',"acted":', toString(toInt64(answers.acted) + toInt64(conversions.n)), ',"skips":', toString(skips.n),
    ',"steps_granted":', if(health.u = '', 'null', if(health.steps_granted = 1, 'true', 'false')),
    ',"sleep_granted":', if(health.u = '', 'null', if(health.sleep_granted = 1, 'true', 'false')),
    ',"sleep":', toJSONString([toFloat64(health.sleep_n), health.sleep_sum, health.sleep_sq]),
    ',"wake":', toJSONString([toFloat64(health.wake_n), health.wake_sum, health.wake_sq]),
    ',"steps":', if(steps.u = '', '[0,0,0]', toJSONString(steps.steps)),
    ',"ignored_by_type":', if(ignored_types_m.u = '', '{}', ignored_types_m.j),
    ',"switched_off":', if(switched.u = '', '[]', switched.switched_off),
    ',"route_days":', if(route_days_m.u = '', '{}', route_days_m.j), ',"result_days":', if(result_days_m.u = '', '{}', result_days_m.j),
    ',"trial":', if(trial_m.u = '', '{}', trial_m.j), ',"ran":', if(users.ran = 1, 'true', 'false'),
    ',"enabled":', if(routines.u = '', 'null', routines.enabled),
    ',"set_on":', if(set_on_m.u = '', '{}', set_on_m.j), ',"set_choice":', if(set_choice_m.u = '', '{}', set_choice_m.j),
    ',"set_at":', if(set_at_m.u = '', '{}', set_at_m.j),
    ',"notices_off":', if(off_after.off = 1, 'true', 'false'), ',"notices_off_after":', if(off_after.off = 1, toString(off_after.place), 'null'),
    ',"exposures":', toJSONString([exposures.e1, exposures.e2, exposures.e3, exposures.e4, exposures.e5]),
    ',"delivered_by_place":', toJSONString([places.d0, places.d1, places.d2, places.d3]),
    ',"ignored_by_place":', toJSONString([ignored_places.i0, ignored_places.i1, ignored_places.i2, ignored_places.i3]),
    ',"seen_by_type":', if(seen_m.u = '', '{}', seen_m.j), ',"unknown_kinds":', if(unknown_m.u = '', '{}', unknown_m.j), '}'
) AS row
FROM users
LEFT JOIN opens_m ON opens_m.u = users.u LEFT JOIN open_minutes_m ON open_minutes_m.u = users.u
LEFT JOIN (SELECT u, m FROM use_maps WHERE kind = 'log') logs ON logs.u = users.u
LEFT JOIN (SELECT u, m FROM use_maps WHERE kind = 'tick') ticks ON ticks.u = users.u
LEFT JOIN places ON places.u = users.u LEFT JOIN answers ON answers.u = users.u LEFT JOIN conversions ON conversions.u = users.u
LEFT JOIN skips ON skips.u = users.u LEFT JOIN health ON health.u = users.u LEFT JOIN steps ON steps.u = users.u
LEFT JOIN ignored_types_m ON ignored_types_m.u = users.u
LEFT JOIN (SELECT u, switched_off FROM lists_m WHERE switched_off <> '') switched ON switched.u = users.u
LEFT JOIN route_days_m ON route_days_m.u = users.u LEFT JOIN result_days_m ON result_days_m.u = users.u
LEFT JOIN trial_m ON trial_m.u = users.u
LEFT JOIN (SELECT u, enabled FROM lists_m WHERE enabled <> '') routines ON routines.u = users.u
LEFT JOIN set_on_m ON set_on_m.u = users.u LEFT JOIN set_choice_m ON set_choice_m.u = users.u LEFT JOIN set_at_m ON set_at_m.u = users.u
LEFT JOIN off_after ON off_after.u = users.u LEFT JOIN exposures ON exposures.u = users.u
LEFT JOIN ignored_places ON ignored_places.u = users.u LEFT JOIN seen_m ON seen_m.u = users.u LEFT JOIN unknown_m ON unknown_m.u = users.u
SETTINGS join_use_nulls = 0;
