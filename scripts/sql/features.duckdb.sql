-- Per-user features of the telemetry (DuckDB): one row a user, the columns of
-- `rules population fit --features` (docs/WAREHOUSE.md). Every quantity is the one the
-- streaming reader keeps (Sources/RulesSimulator/Fit/UserFeatures.swift), in the words of its
-- comments. Parameters, set by scripts/features: the table `lines(file, n, line)` (each line
-- of each file with its place), and the macros day_start() (minutes of the logical day's start)
-- and known_kind(k).
--
-- A user's lines are in time order in the file (the reader refuses them otherwise); `o` is
-- that order: by file, then place in the file.

CREATE OR REPLACE TEMP TABLE t AS
SELECT
    line ->> '$.user' AS u,
    line ->> '$.ruleset' AS ruleset,
    (line ->> '$.day')::BIGINT AS day,
    (line ->> '$.minute')::BIGINT AS minute,
    (line ->> '$.day')::BIGINT * 1440 + (line ->> '$.minute')::BIGINT AS clock,
    line ->> '$.kind' AS kind,
    line ->> '$.cause' AS cause,
    line ->> '$.action' AS action,
    line ->> '$.type' AS type,
    line ->> '$.routine' AS routine,
    line ->> '$.response' AS response,
    line ->> '$.key' AS key,
    line ->> '$.choice' AS choice,
    line ->> '$.route' AS route,
    line ->> '$.result' AS result,
    line ->> '$.steps_permission' AS steps_permission,
    line ->> '$.sleep_permission' AS sleep_permission,
    -- Numbers, booleans as 0 and 1 (as the reader has them).
    (line -> '$.value')::DOUBLE AS value,
    CASE (line ->> '$.checked') WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE (line ->> '$.checked')::DOUBLE END AS checked,
    CASE (line ->> '$.on') WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE (line ->> '$.on')::DOUBLE END AS "on",
    CASE (line ->> '$.set') WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE (line ->> '$.set')::DOUBLE END AS "set",
    (line -> '$.at')::DOUBLE AS "at",
    (line -> '$.sleep')::DOUBLE AS sleep,
    (line -> '$.wake')::DOUBLE AS wake,
    (line -> '$.steps')::DOUBLE AS steps,
    row_number() OVER (ORDER BY file, n) AS o
FROM lines
WHERE trim(line) <> '';

-- Lines of kinds the reader knows; the others are counted per user.
CREATE OR REPLACE TEMP TABLE k AS SELECT * FROM t WHERE known_kind(kind);
CREATE OR REPLACE TEMP TABLE users AS
SELECT u, any_value(ruleset) AS ruleset, min(day) AS first_day, max(day) AS last_day, count(DISTINCT day) AS days,
    bool_or(kind = 'run') AS ran
FROM k GROUP BY u;

-- What each line needs of the lines before it (of the same user, in order).
CREATE OR REPLACE TEMP TABLE e AS
SELECT *,
    -- The last answer that was not an ignore (a log or tick within a minute of it is the notice's act).
    max(CASE WHEN kind = 'response' AND coalesce(response, '') <> 'ignored' THEN clock END)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS last_answer,
    -- The last opening of a notice, and where it was.
    max(CASE WHEN kind = 'response' AND response = 'opened' THEN o END)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS last_opened_o,
    -- Deliveries and withheld ones before this line (settings before the first are what users set).
    count(CASE WHEN kind IN ('delivery', 'withheld') AND type IS NOT NULL THEN 1 END)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS due_before,
    -- Whether a notices line has said "off" before (the device shows nothing from then on).
    bool_or(kind = 'notices' AND "on" = 0)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS off_before,
    -- The day's deliveries so far, this one included (its place in the day).
    count(CASE WHEN kind = 'delivery' AND type IS NOT NULL THEN 1 END)
        OVER (PARTITION BY u, day ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS day_delivered,
    -- The day's route so far (the last route line of the day before this one).
    last_value(CASE WHEN kind = 'route' THEN route END IGNORE NULLS)
        OVER (PARTITION BY u, day ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS day_route
FROM k;

-- A log (with its routine) or a tick (checked, with its routine): what makes a routine done.
CREATE OR REPLACE TEMP TABLE done AS
SELECT * FROM e
WHERE (kind = 'log' AND routine IS NOT NULL) OR (kind = 'tick' AND routine IS NOT NULL AND checked = 1);

-- Logs and ticks of the user's own habit: not within a minute of an answered notice.
CREATE OR REPLACE TEMP TABLE own AS
SELECT u, kind, routine, day, o,
    CASE WHEN kind = 'log' THEN coalesce(value, 0) ELSE 1 END AS value, minute
FROM done
WHERE last_answer IS NULL OR clock - last_answer > 1;

CREATE OR REPLACE TEMP TABLE uses AS
SELECT u, kind,
    map_from_entries(list({'k': routine, 'v': [days, count, value, minutes, minutes2]} ORDER BY routine)) AS m
FROM (
    SELECT u, kind, routine,
        count(DISTINCT day)::DOUBLE AS days, count(*)::DOUBLE AS count,
        list_reduce(list(value ORDER BY o), lambda a, b: a + b) AS value,
        sum(minute)::DOUBLE AS minutes, sum(minute * minute)::DOUBLE AS minutes2
    FROM own GROUP BY u, kind, routine
) GROUP BY u, kind;

-- An opening followed within a minute by a log or tick (before the next opening) was the act.
CREATE OR REPLACE TEMP TABLE conversions AS
SELECT d.u, count(DISTINCT d.last_opened_o) AS n
FROM done d JOIN e r ON r.u = d.u AND r.o = d.last_opened_o
WHERE d.clock - r.clock <= 1
GROUP BY d.u;

CREATE OR REPLACE TEMP TABLE answers AS
SELECT u,
    count(CASE WHEN response = 'opened' THEN 1 END) AS opened,
    count(CASE WHEN response = 'ignored' THEN 1 END) AS ignored,
    count(CASE WHEN coalesce(response, '') NOT IN ('opened', 'ignored') THEN 1 END) AS acted
FROM e WHERE kind = 'response' GROUP BY u;

-- Opens by 10-minute bin of the logical day.
CREATE OR REPLACE TEMP TABLE opens AS
SELECT u,
    map_from_entries(list({'k': bin::VARCHAR, 'v': n} ORDER BY bin)) AS opens,
    map_from_entries(list({'k': bin::VARCHAR, 'v': minutes} ORDER BY bin)) AS open_minutes
FROM (
    SELECT u, least(144, minute // 10) AS bin, count(*) AS n, sum(minute)::DOUBLE AS minutes
    FROM e WHERE kind = 'run' AND cause = 'open' GROUP BY u, bin
) GROUP BY u;

-- Deliveries and withheld ones (with a type), each delivery's place in its day.
CREATE OR REPLACE TEMP TABLE due AS
SELECT *, kind = 'delivery' AS delivered, least(day_delivered, 4) - 1 AS place4, least(greatest(day_delivered, 1), 5) AS place5
FROM e WHERE kind IN ('delivery', 'withheld') AND type IS NOT NULL;

-- Types switched off after the first delivery (opt-outs), and where.
CREATE OR REPLACE TEMP TABLE switches AS
SELECT u, type, min(o) AS o FROM e
WHERE kind = 'setting' AND due_before > 0 AND type IS NOT NULL AND "on" = 0
GROUP BY u, type;

-- Ignores: by type while the type was on; by the place of the type's last delivery that day.
CREATE OR REPLACE TEMP TABLE ignores AS
SELECT r.u, r.o, r.type,
    (SELECT d.place4 FROM due d WHERE d.u = r.u AND d.day = r.day AND d.type = r.type AND d.delivered AND d.o < r.o ORDER BY d.o DESC LIMIT 1)
        AS place4,
    NOT EXISTS (SELECT 1 FROM switches s WHERE s.u = r.u AND s.type = r.type AND s.o < r.o) AS still_on
FROM e r WHERE r.kind = 'response' AND r.response = 'ignored' AND r.type IS NOT NULL;

CREATE OR REPLACE TEMP TABLE places AS
SELECT u,
    [count(CASE WHEN delivered AND place4 = 0 THEN 1 END), count(CASE WHEN delivered AND place4 = 1 THEN 1 END),
     count(CASE WHEN delivered AND place4 = 2 THEN 1 END), count(CASE WHEN delivered AND place4 = 3 THEN 1 END)] AS delivered_by_place,
    count(CASE WHEN delivered THEN 1 END) AS deliveries, count(CASE WHEN NOT delivered THEN 1 END) AS withheld
FROM due GROUP BY u;

CREATE OR REPLACE TEMP TABLE ignored_places AS
SELECT u,
    [count(CASE WHEN place4 = 0 THEN 1 END), count(CASE WHEN place4 = 1 THEN 1 END),
     count(CASE WHEN place4 = 2 THEN 1 END), count(CASE WHEN place4 = 3 THEN 1 END)] AS ignored_by_place
FROM ignores GROUP BY u;

CREATE OR REPLACE TEMP TABLE ignored_types AS
SELECT u, map_from_entries(list({'k': type, 'v': n} ORDER BY type)) AS m
FROM (SELECT u, type, count(*) AS n FROM ignores WHERE still_on GROUP BY u, type) GROUP BY u;

-- What users set before their first delivery: the last word on each setting.
CREATE OR REPLACE TEMP TABLE sets AS
SELECT *, coalesce(type, key) AS skey,
    CASE WHEN routine IS NULL THEN coalesce(type, key) ELSE coalesce(type, key) || '.' || routine END AS name
FROM e WHERE kind = 'setting' AND due_before = 0 AND coalesce(type, key) IS NOT NULL;

CREATE OR REPLACE TEMP TABLE set_on AS
SELECT u, map_from_entries(list({'k': name, 'v': v} ORDER BY name)) AS m
FROM (SELECT u, name, arg_max("on" <> 0, o) AS v FROM sets WHERE "on" IS NOT NULL GROUP BY u, name) GROUP BY u;

CREATE OR REPLACE TEMP TABLE set_choice AS
SELECT u, map_from_entries(list({'k': name, 'v': v} ORDER BY name)) AS m
FROM (SELECT u, name, arg_max(choice, o) AS v FROM sets WHERE choice IS NOT NULL GROUP BY u, name) GROUP BY u;

-- A time set (wall minutes, the middle of its 30-minute bucket) unless a later `set: false`
-- of its key (without a routine) cleared it.
CREATE OR REPLACE TEMP TABLE set_at AS
SELECT u, map_from_entries(list({'k': name, 'v': v} ORDER BY name)) AS m
FROM (
    SELECT a.u, a.name, arg_max(floor(a."at")::BIGINT + 15, a.o) AS v, max(a.o) AS last_o, any_value(a.skey) AS skey
    FROM sets a WHERE a."at" IS NOT NULL AND isfinite(a."at") AND a."at" >= 0 AND a."at" < 1440 GROUP BY a.u, a.name
) x
WHERE NOT EXISTS (SELECT 1 FROM sets c WHERE c.u = x.u AND c."set" = 0 AND c.routine IS NULL AND c.skey = x.skey AND c.o >= x.last_o)
GROUP BY u;

-- Health: permissions from the user's first health line; sleep and waking from each day's
-- first; steps from each day's last line with steps, read as the day's total (walked evenly
-- 07:00–23:00: a sync at wall time w ≥ 12:00 saw (w − 420) / 960 of it; earlier syncs say too
-- little and are left out).
CREATE OR REPLACE TEMP TABLE hl AS
SELECT *, row_number() OVER (PARTITION BY u, day ORDER BY o) AS nth,
    row_number() OVER (PARTITION BY u ORDER BY o) AS ever
FROM e WHERE kind = 'health';

CREATE OR REPLACE TEMP TABLE daysteps AS
SELECT u, day, arg_max(steps, o) AS steps, arg_max(minute, o) AS minute FROM hl WHERE steps IS NOT NULL GROUP BY u, day;

CREATE OR REPLACE TEMP TABLE stepdays AS
SELECT u, day,
    CASE WHEN wall >= 1380 THEN trunc(steps) + 250.0 ELSE (trunc(steps) + 250.0) * 960.0 / (wall - 420)::DOUBLE END AS x
FROM (SELECT *, (minute + day_start()) % 1440 AS wall FROM daysteps)
WHERE wall >= 720 AND steps >= 0;

CREATE OR REPLACE TEMP TABLE health AS
SELECT u,
    any_value(coalesce(steps_permission = 'granted', false)) FILTER (WHERE ever = 1) AS steps_granted,
    any_value(coalesce(sleep_permission = 'granted', false)) FILTER (WHERE ever = 1) AS sleep_granted,
    [count(sleep) FILTER (WHERE nth = 1), coalesce(sum(sleep + 15) FILTER (WHERE nth = 1), 0), coalesce(sum((sleep + 15) * (sleep + 15)) FILTER (WHERE nth = 1), 0)]
        AS sleep,
    [count(wake) FILTER (WHERE nth = 1), coalesce(sum(wake + 15) FILTER (WHERE nth = 1), 0), coalesce(sum((wake + 15) * (wake + 15)) FILTER (WHERE nth = 1), 0)]
        AS wake
FROM hl GROUP BY u;

CREATE OR REPLACE TEMP TABLE steps AS
SELECT u, [count(*)::DOUBLE, list_reduce(list(x ORDER BY day), lambda a, b: a + b), list_reduce(list(x * x ORDER BY day), lambda a, b: a + b)] AS steps
FROM stepdays GROUP BY u;

-- Routes each day ended on (at its `day` line: the day's last route line before it) and results.
CREATE OR REPLACE TEMP TABLE route_days AS
SELECT u, map_from_entries(list({'k': r, 'v': n} ORDER BY r)) AS m
FROM (SELECT u, coalesce(day_route, 'none') AS r, count(*) AS n FROM e WHERE kind = 'day' GROUP BY u, r) GROUP BY u;

CREATE OR REPLACE TEMP TABLE result_days AS
SELECT u, map_from_entries(list({'k': result, 'v': n} ORDER BY result)) AS m
FROM (SELECT u, result, count(*) AS n FROM e WHERE kind = 'day' AND result IS NOT NULL GROUP BY u, result) GROUP BY u;

CREATE OR REPLACE TEMP TABLE skips AS
SELECT u, count(*) AS n FROM e WHERE kind = 'run' AND cause = 'action' AND action = 'skip_today' GROUP BY u;

CREATE OR REPLACE TEMP TABLE enabled AS
SELECT u, list(DISTINCT routine ORDER BY routine) AS m FROM e WHERE kind = 'routine' AND routine IS NOT NULL GROUP BY u;

CREATE OR REPLACE TEMP TABLE unknown AS
SELECT u, map_from_entries(list({'k': kind, 'v': n} ORDER BY kind)) AS m
FROM (SELECT u, kind, count(*) AS n FROM t WHERE NOT known_kind(kind) GROUP BY u, kind) GROUP BY u;

-- The trial: each delivery or withheld one while notices were on is a decision point, in the
-- bin of the type's deliveries so far (0, 7, 14, 28); done when a log or tick of its routine (any
-- routine for a notice of none) follows it the same day within 45 minutes.
CREATE OR REPLACE TEMP TABLE points AS
SELECT p.*,
    count(CASE WHEN delivered THEN 1 END) OVER (PARTITION BY u, type ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS so_far,
    EXISTS (
        SELECT 1 FROM done d
        WHERE d.u = p.u AND d.o > p.o AND d.day = p.day AND d.clock <= p.clock + 45 AND (p.routine IS NULL OR d.routine = p.routine)
    ) AS is_done
FROM due p WHERE NOT coalesce(p.off_before, false);

CREATE OR REPLACE TEMP TABLE trial AS
SELECT u, map_from_entries(list({'k': type, 'v': bins} ORDER BY type)) AS m
FROM (
    SELECT u, type, map_from_entries(list({'k': bin::VARCHAR, 'v': cell} ORDER BY bin)) AS bins
    FROM (
        SELECT u, type, CASE WHEN so_far >= 28 THEN 28 WHEN so_far >= 14 THEN 14 WHEN so_far >= 7 THEN 7 ELSE 0 END AS bin,
            [count(CASE WHEN delivered THEN 1 END), count(CASE WHEN delivered AND is_done THEN 1 END),
             count(CASE WHEN NOT delivered THEN 1 END), count(CASE WHEN NOT delivered AND is_done THEN 1 END)] AS cell
        FROM points GROUP BY u, type, bin
    ) GROUP BY u, type
) GROUP BY u;

CREATE OR REPLACE TEMP TABLE seen AS
SELECT u, map_from_entries(list({'k': type, 'v': n} ORDER BY type)) AS m
FROM (SELECT u, type, count(*) AS n FROM points WHERE delivered GROUP BY u, type) GROUP BY u;

-- Where notices went off: the app learns it at a run, so the delivery it followed is the last
-- one answered since the last run that read "on" (else that stretch's first).
CREATE OR REPLACE TEMP TABLE marks AS
SELECT u, min(CASE WHEN kind = 'notices' AND "on" = 0 THEN o END) AS off_o FROM e GROUP BY u;

CREATE OR REPLACE TEMP TABLE marks2 AS
SELECT m.u, m.off_o,
    (SELECT max(r.o) FROM e r WHERE r.u = m.u AND r.kind = 'run' AND (m.off_o IS NULL OR r.o < m.off_o)) AS on_run_o
FROM marks m;

CREATE OR REPLACE TEMP TABLE seen_deliveries AS
SELECT d.u, d.o, d.type, d.place5, m.off_o,
    (m.on_run_o IS NOT NULL AND d.o < m.on_run_o) AS exposed
FROM due d JOIN marks2 m USING (u)
WHERE d.delivered AND (m.off_o IS NULL OR d.o < m.off_o);

CREATE OR REPLACE TEMP TABLE triggers AS
SELECT s.u, max(s.o) AS trigger_o
FROM seen_deliveries s
WHERE NOT s.exposed AND s.off_o IS NOT NULL
    AND s.o < (SELECT max(r.o) FROM e r WHERE r.u = s.u AND r.kind = 'response' AND r.type = s.type)
GROUP BY s.u;

CREATE OR REPLACE TEMP TABLE notices AS
SELECT s.u,
    [count(*) FILTER (WHERE place5 = 1), count(*) FILTER (WHERE place5 = 2), count(*) FILTER (WHERE place5 = 3),
     count(*) FILTER (WHERE place5 = 4), count(*) FILTER (WHERE place5 = 5)] AS exposures
FROM (
    SELECT s.*, coalesce(t.trigger_o, (SELECT min(x.o) FROM seen_deliveries x WHERE x.u = s.u AND NOT x.exposed)) AS last_o
    FROM seen_deliveries s LEFT JOIN triggers t USING (u)
) s
WHERE s.exposed OR s.off_o IS NULL OR s.o <= s.last_o
GROUP BY s.u;

CREATE OR REPLACE TEMP TABLE off_after AS
SELECT m.u,
    CASE WHEN m.off_o IS NULL THEN NULL
        ELSE coalesce(
            (SELECT s.place5 FROM seen_deliveries s WHERE s.u = m.u AND NOT s.exposed
             ORDER BY (s.o = (SELECT t.trigger_o FROM triggers t WHERE t.u = m.u)) DESC, s.o LIMIT 1), 0) END AS place
FROM marks2 m;

-- One row a user, as JSON: the columns of the features format, version 1.
CREATE OR REPLACE TEMP TABLE features AS
SELECT users.u, json_object(
    'features', 1, 'user', users.u, 'ruleset', users.ruleset, 'first_day', users.first_day, 'last_day', users.last_day,
    'days', users.days,
    'opens', coalesce(to_json(opens.opens), '{}'::JSON), 'open_minutes', coalesce(to_json(opens.open_minutes), '{}'::JSON),
    'logs', coalesce((SELECT to_json(m) FROM uses WHERE uses.u = users.u AND kind = 'log'), '{}'::JSON),
    'ticks', coalesce((SELECT to_json(m) FROM uses WHERE uses.u = users.u AND kind = 'tick'), '{}'::JSON),
    'deliveries', coalesce(places.deliveries, 0), 'withheld', coalesce(places.withheld, 0),
    'opened', coalesce(answers.opened, 0) - coalesce(conversions.n, 0), 'ignored', coalesce(answers.ignored, 0),
    'acted', coalesce(answers.acted, 0) + coalesce(conversions.n, 0), 'skips', coalesce(skips.n, 0),
    'steps_granted', health.steps_granted, 'sleep_granted', health.sleep_granted,
    'sleep', coalesce(health.sleep, [0, 0, 0]), 'wake', coalesce(health.wake, [0, 0, 0]), 'steps', coalesce(steps.steps, [0, 0, 0]),
    'ignored_by_type', coalesce(to_json(ignored_types.m), '{}'::JSON),
    'switched_off', coalesce((SELECT to_json(list(type ORDER BY type)) FROM switches WHERE switches.u = users.u), '[]'::JSON),
    'route_days', coalesce(to_json(route_days.m), '{}'::JSON), 'result_days', coalesce(to_json(result_days.m), '{}'::JSON),
    'trial', coalesce(to_json(trial.m), '{}'::JSON), 'ran', users.ran,
    'enabled', to_json(enabled.m),
    'set_on', coalesce(to_json(set_on.m), '{}'::JSON), 'set_choice', coalesce(to_json(set_choice.m), '{}'::JSON),
    'set_at', coalesce(to_json(set_at.m), '{}'::JSON),
    'notices_off', marks2.off_o IS NOT NULL, 'notices_off_after', off_after.place,
    'exposures', coalesce(notices.exposures, [0, 0, 0, 0, 0]),
    'delivered_by_place', coalesce(places.delivered_by_place, [0, 0, 0, 0]),
    'ignored_by_place', coalesce(ignored_places.ignored_by_place, [0, 0, 0, 0]),
    'seen_by_type', coalesce(to_json(seen.m), '{}'::JSON), 'unknown_kinds', coalesce(to_json(unknown.m), '{}'::JSON)
) AS row
FROM users
LEFT JOIN opens USING (u) LEFT JOIN places USING (u) LEFT JOIN answers USING (u) LEFT JOIN conversions USING (u)
LEFT JOIN skips USING (u) LEFT JOIN health USING (u) LEFT JOIN steps USING (u) LEFT JOIN ignored_types USING (u)
LEFT JOIN route_days USING (u) LEFT JOIN result_days USING (u) LEFT JOIN trial USING (u) LEFT JOIN enabled USING (u)
LEFT JOIN set_on USING (u) LEFT JOIN set_choice USING (u) LEFT JOIN set_at USING (u) LEFT JOIN marks2 USING (u)
LEFT JOIN off_after USING (u) LEFT JOIN notices USING (u) LEFT JOIN ignored_places USING (u) LEFT JOIN seen USING (u)
LEFT JOIN unknown USING (u);
