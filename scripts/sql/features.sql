-- Per-user features of the telemetry: the part every engine runs as written (DuckDB, ClickHouse,
-- Spark SQL), in the SQL they share — window functions, joins on equal keys, CASE, no correlated
-- subquery, no engine's own function. Each engine's file reads the lines before it
-- (`<engine>.read.sql`: the table `t`) and writes the rows after it (`<engine>.emit.sql`: maps,
-- lists, the ordered sums, JSON). scripts/features runs the three in order, each block
-- `-- @table NAME` made a table the engine's way (a temporary table, a Memory table, a cached
-- view); `params(day_start)` (minutes of the logical day's start) comes from it.
--
-- Every quantity is the one the streaming reader keeps (Sources/RulesFit/UserFeatures.swift),
-- in the words of its comments. `t` has one row a non-blank line: the user `u`, `ruleset`, `day`,
-- `minute`, `clock` (day × 1440 + minute), `kind`, the words (`cause`, `action`, `type`,
-- `routine`, `response`, `setting_key`, `choice`, `route`, `result`, `steps_permission`,
-- `sleep_permission`), the numbers as doubles with booleans as 1 and 0 (`value`, `checked`,
-- `turned_on`, `is_set`, `at_minute`, `sleep`, `wake`, `steps`, `steps_whole`: steps with the
-- fraction cut off) and `o`, the line's place among the user's lines: by `seq`, the number the app
-- gives each line of a user, then (lines written before `seq` was) by file and place in the file.
-- A user's lines are in time order (the reader refuses them otherwise), and an answer and the log
-- it caused share a minute: `o`, not the clock, orders them; `o` is compared only with the same user's.

-- @table kinds
SELECT 'run' AS kind UNION ALL SELECT 'log' UNION ALL SELECT 'tick' UNION ALL SELECT 'delivery' UNION ALL SELECT 'response'
UNION ALL SELECT 'withheld' UNION ALL SELECT 'setting' UNION ALL SELECT 'health' UNION ALL SELECT 'route' UNION ALL SELECT 'day'
UNION ALL SELECT 'routine' UNION ALL SELECT 'notices';

-- Lines of kinds the reader knows; the others are counted per user.
-- @table k
SELECT * FROM t WHERE kind IN (SELECT kind FROM kinds);

-- @table users
SELECT u, min(ruleset) AS ruleset, min(day) AS first_day, max(day) AS last_day, count(DISTINCT day) AS days,
    max(CASE WHEN kind = 'run' THEN 1 ELSE 0 END) AS ran
FROM k GROUP BY u;

-- What each line needs of the lines before it (of the same user, in order).
-- @table e
SELECT k.*,
    -- The last answer that was not an ignore (a log or tick within a minute of it is the notice's act).
    max(CASE WHEN kind = 'response' AND coalesce(response, '') <> 'ignored' THEN clock END)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS last_answer,
    -- The last opening of a notice, and where it was.
    max(CASE WHEN kind = 'response' AND response = 'opened' THEN o END)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS last_opened_o,
    -- Deliveries and withheld ones before this line (settings before the first are what users set).
    CAST(count(CASE WHEN kind IN ('delivery', 'withheld') AND type IS NOT NULL THEN 1 END)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS BIGINT) AS due_before,
    -- Whether a notices line has said "off" before (the device shows nothing from then on).
    max(CASE WHEN kind = 'notices' AND turned_on = 0 THEN 1 ELSE 0 END)
        OVER (PARTITION BY u ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS off_before,
    -- The day's deliveries so far, this one included (its place in the day).
    CAST(count(CASE WHEN kind = 'delivery' AND type IS NOT NULL THEN 1 END)
        OVER (PARTITION BY u, day ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BIGINT) AS day_delivered,
    -- The day's route so far: where the last route line of the day before this one is.
    max(CASE WHEN kind = 'route' AND route IS NOT NULL THEN o END)
        OVER (PARTITION BY u, day ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS day_route_o
FROM k;

-- A log (with its routine) or a tick (checked, with its routine): what makes a routine done.
-- @table done
SELECT * FROM e
WHERE (kind = 'log' AND routine IS NOT NULL) OR (kind = 'tick' AND routine IS NOT NULL AND checked = 1);

-- Logs and ticks of the user's own habit: not within a minute of an answered notice.
-- @table own
SELECT u, kind, routine, day, o, CASE WHEN kind = 'log' THEN coalesce(value, 0) ELSE 1 END AS value, minute
FROM done
WHERE last_answer IS NULL OR clock - last_answer > 1;

-- Per routine: days, count, minutes and squared minutes (the value's sum, in line order, is the engine's).
-- @table use_counts
SELECT u, kind, routine, count(DISTINCT day) AS days, count(*) AS n, sum(minute) AS minutes, sum(minute * minute) AS minutes2
FROM own GROUP BY u, kind, routine;

-- An opening followed within a minute by a log or tick (before the next opening) was the act.
-- @table conversions
SELECT d.u AS u, count(DISTINCT d.last_opened_o) AS n
FROM done d JOIN e r ON r.u = d.u AND r.o = d.last_opened_o
WHERE d.clock - r.clock <= 1
GROUP BY d.u;

-- @table answers
SELECT u,
    count(CASE WHEN response = 'opened' THEN 1 END) AS opened,
    count(CASE WHEN response = 'ignored' THEN 1 END) AS ignored,
    count(CASE WHEN coalesce(response, '') NOT IN ('opened', 'ignored') THEN 1 END) AS acted
FROM e WHERE kind = 'response' GROUP BY u;

-- Opens by 10-minute bin of the logical day (the last bin, 144, holds 24:00 too).
-- @table open_bins
SELECT u, bin, count(*) AS n, sum(minute) AS minutes
FROM (SELECT u, minute, least(144, CAST(floor(minute / 10) AS BIGINT)) AS bin FROM e WHERE kind = 'run' AND cause = 'open') x
GROUP BY u, bin;

-- Deliveries and withheld ones (with a type), each delivery's place in its day.
-- @table due
SELECT e.*, CASE WHEN kind = 'delivery' THEN 1 ELSE 0 END AS delivered,
    least(day_delivered, 4) - 1 AS place4, least(greatest(day_delivered, 1), 5) AS place5
FROM e WHERE kind IN ('delivery', 'withheld') AND type IS NOT NULL;

-- Types switched off after the first delivery (opt-outs), and where.
-- @table switches
SELECT u, type, min(o) AS o FROM e
WHERE kind = 'setting' AND due_before > 0 AND type IS NOT NULL AND turned_on = 0
GROUP BY u, type;

-- Ignores: by type while the type was on; by the place of the type's last delivery that day.
-- @table typed
SELECT u, o, kind, type,
    max(CASE WHEN kind = 'delivery' THEN o END) OVER (PARTITION BY u, day, type ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
        AS last_delivery_o
FROM e WHERE type IS NOT NULL AND (kind = 'delivery' OR (kind = 'response' AND response = 'ignored'));

-- @table ignores
SELECT r.u AS u, r.o AS o, r.type AS type, d.place4 AS place4, CASE WHEN s.o IS NULL OR s.o > r.o THEN 1 ELSE 0 END AS still_on
FROM typed r
LEFT JOIN due d ON d.u = r.u AND d.o = r.last_delivery_o
LEFT JOIN switches s ON s.u = r.u AND s.type = r.type
WHERE r.kind = 'response';

-- @table places
SELECT u,
    count(CASE WHEN delivered = 1 AND place4 = 0 THEN 1 END) AS d0, count(CASE WHEN delivered = 1 AND place4 = 1 THEN 1 END) AS d1,
    count(CASE WHEN delivered = 1 AND place4 = 2 THEN 1 END) AS d2, count(CASE WHEN delivered = 1 AND place4 = 3 THEN 1 END) AS d3,
    count(CASE WHEN delivered = 1 THEN 1 END) AS deliveries, count(CASE WHEN delivered = 0 THEN 1 END) AS withheld
FROM due GROUP BY u;

-- @table ignored_places
SELECT u,
    count(CASE WHEN place4 = 0 THEN 1 END) AS i0, count(CASE WHEN place4 = 1 THEN 1 END) AS i1,
    count(CASE WHEN place4 = 2 THEN 1 END) AS i2, count(CASE WHEN place4 = 3 THEN 1 END) AS i3
FROM ignores GROUP BY u;

-- @table ignored_types
SELECT u, type, count(*) AS n FROM ignores WHERE still_on = 1 GROUP BY u, type;

-- What users set before their first delivery: the last word on each setting.
-- @table sets
SELECT e.*, coalesce(type, setting_key) AS skey,
    CASE WHEN routine IS NULL THEN coalesce(type, setting_key) ELSE concat(coalesce(type, setting_key), '.', routine) END AS name
FROM e WHERE kind = 'setting' AND due_before = 0 AND coalesce(type, setting_key) IS NOT NULL;

-- @table set_on
SELECT u, name, CASE WHEN turned_on <> 0 THEN 1 ELSE 0 END AS v
FROM (SELECT u, name, turned_on, row_number() OVER (PARTITION BY u, name ORDER BY o DESC) AS r FROM sets WHERE turned_on IS NOT NULL) x
WHERE r = 1;

-- @table set_choice
SELECT u, name, choice AS v
FROM (SELECT u, name, choice, row_number() OVER (PARTITION BY u, name ORDER BY o DESC) AS r FROM sets WHERE choice IS NOT NULL) x
WHERE r = 1;

-- A time set (wall minutes, the middle of its 30-minute bucket) unless a later `set: false`
-- of its key (without a routine) cleared it.
-- @table set_at
SELECT x.u AS u, x.name AS name, x.v AS v
FROM (
    SELECT u, name, skey, o, CAST(floor(at_minute) AS BIGINT) + 15 AS v, row_number() OVER (PARTITION BY u, name ORDER BY o DESC) AS r
    FROM sets WHERE at_minute IS NOT NULL AND at_minute >= 0 AND at_minute < 1440
) x
LEFT JOIN (SELECT u, skey, max(o) AS clear_o FROM sets WHERE is_set = 0 AND routine IS NULL GROUP BY u, skey) c
    ON c.u = x.u AND c.skey = x.skey
WHERE x.r = 1 AND (c.clear_o IS NULL OR c.clear_o < x.o);

-- Health: permissions from the user's first health line; sleep and waking from each day's
-- first; steps from each day's last line with steps, read as the day's total (walked evenly
-- 07:00–23:00: a sync at wall time w ≥ 12:00 saw (w − 420) / 960 of it; earlier syncs say too
-- little and are left out).
-- @table hl
SELECT e.*, row_number() OVER (PARTITION BY u, day ORDER BY o) AS nth, row_number() OVER (PARTITION BY u ORDER BY o) AS ever
FROM e WHERE kind = 'health';

-- @table health
SELECT u,
    max(CASE WHEN ever = 1 THEN (CASE WHEN steps_permission = 'granted' THEN 1 ELSE 0 END) END) AS steps_granted,
    max(CASE WHEN ever = 1 THEN (CASE WHEN sleep_permission = 'granted' THEN 1 ELSE 0 END) END) AS sleep_granted,
    count(CASE WHEN nth = 1 THEN sleep END) AS sleep_n, coalesce(sum(CASE WHEN nth = 1 THEN sleep + 15 END), 0) AS sleep_sum,
    coalesce(sum(CASE WHEN nth = 1 THEN (sleep + 15) * (sleep + 15) END), 0) AS sleep_sq,
    count(CASE WHEN nth = 1 THEN wake END) AS wake_n, coalesce(sum(CASE WHEN nth = 1 THEN wake + 15 END), 0) AS wake_sum,
    coalesce(sum(CASE WHEN nth = 1 THEN (wake + 15) * (wake + 15) END), 0) AS wake_sq
FROM hl GROUP BY u;

-- @table stepdays
SELECT u, day, CASE WHEN wall >= 1380 THEN steps_whole + 250 ELSE (steps_whole + 250) * 960 / (wall - 420) END AS x
FROM (
    SELECT y.u AS u, y.day AS day, y.steps_whole AS steps_whole, (y.minute + p.day_start) % 1440 AS wall
    FROM (SELECT u, day, minute, steps_whole, row_number() OVER (PARTITION BY u, day ORDER BY o DESC) AS r FROM hl WHERE steps IS NOT NULL) y
    CROSS JOIN params p
    WHERE y.r = 1
) z
WHERE wall >= 720 AND steps_whole >= 0;

-- Routes each day ended on (at its `day` line: the day's last route line before it) and results.
-- @table route_days
SELECT d.u AS u, coalesce(r.route, 'none') AS route, count(*) AS n
FROM e d LEFT JOIN e r ON r.u = d.u AND r.o = d.day_route_o
WHERE d.kind = 'day' GROUP BY d.u, coalesce(r.route, 'none');

-- @table result_days
SELECT u, result, count(*) AS n FROM e WHERE kind = 'day' AND result IS NOT NULL GROUP BY u, result;

-- @table skips
SELECT u, count(*) AS n FROM e WHERE kind = 'run' AND cause = 'action' AND action = 'skip_today' GROUP BY u;

-- @table enabled
SELECT DISTINCT u, routine FROM e WHERE kind = 'routine' AND routine IS NOT NULL;

-- @table unknown
SELECT u, kind, count(*) AS n FROM t WHERE kind NOT IN (SELECT kind FROM kinds) GROUP BY u, kind;

-- The trial: each delivery or withheld one while notices were on is a decision point, in the
-- bin of the type's deliveries so far (0, 7, 14, 28); done when a log or tick of its routine (any
-- routine for a notice of none) follows it the same day within 45 minutes.
-- @table points0
SELECT due.*,
    count(CASE WHEN delivered = 1 THEN 1 END) OVER (PARTITION BY u, type ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS so_far
FROM due WHERE coalesce(off_before, 0) = 0;

-- @table done_points
SELECT DISTINCT p.u AS u, p.o AS o
FROM points0 p JOIN done d ON d.u = p.u AND d.day = p.day
WHERE d.o > p.o AND d.clock <= p.clock + 45 AND (p.routine IS NULL OR d.routine = p.routine);

-- @table trial_cells
SELECT u, type, bin,
    count(CASE WHEN delivered = 1 THEN 1 END) AS delivered_n, count(CASE WHEN delivered = 1 AND is_done = 1 THEN 1 END) AS delivered_done,
    count(CASE WHEN delivered = 0 THEN 1 END) AS withheld_n, count(CASE WHEN delivered = 0 AND is_done = 1 THEN 1 END) AS withheld_done
FROM (
    SELECT p.u AS u, p.type AS type, p.delivered AS delivered, CASE WHEN x.o IS NULL THEN 0 ELSE 1 END AS is_done,
        CASE WHEN p.so_far >= 28 THEN 28 WHEN p.so_far >= 14 THEN 14 WHEN p.so_far >= 7 THEN 7 ELSE 0 END AS bin
    FROM points0 p LEFT JOIN done_points x ON x.u = p.u AND x.o = p.o
) y
GROUP BY u, type, bin;

-- @table seen
SELECT u, type, count(*) AS n FROM points0 WHERE delivered = 1 GROUP BY u, type;

-- Where notices went off: the app learns it at a run, so the delivery it followed is the last
-- one answered since the last run that read "on" (else that stretch's first).
-- @table marks
SELECT m.u AS u, m.off_o AS off_o, max(CASE WHEN r.kind = 'run' AND (m.off_o IS NULL OR r.o < m.off_o) THEN r.o END) AS on_run_o
FROM (SELECT u, min(CASE WHEN kind = 'notices' AND turned_on = 0 THEN o END) AS off_o FROM e GROUP BY u) m
JOIN e r ON r.u = m.u
GROUP BY m.u, m.off_o;

-- @table seen_deliveries
SELECT d.u AS u, d.o AS o, d.type AS type, d.place5 AS place5, m.off_o AS off_o, CASE WHEN m.on_run_o IS NOT NULL AND d.o < m.on_run_o THEN 1 ELSE 0 END AS exposed
FROM due d JOIN marks m ON m.u = d.u
WHERE d.delivered = 1 AND (m.off_o IS NULL OR d.o < m.off_o);

-- The last delivery not yet exposed that was answered later (the trigger), else the first not exposed.
-- @table last_seen
SELECT m.u AS u, m.off_o AS off_o, coalesce(t.trigger_o, f.o) AS last_o
FROM marks m
LEFT JOIN (
    SELECT s.u AS u, max(s.o) AS trigger_o
    FROM seen_deliveries s
    JOIN (SELECT u, type, max(o) AS o FROM e WHERE kind = 'response' AND type IS NOT NULL GROUP BY u, type) r ON r.u = s.u AND r.type = s.type
    WHERE s.exposed = 0 AND s.off_o IS NOT NULL AND s.o < r.o
    GROUP BY s.u
) t ON t.u = m.u
LEFT JOIN (SELECT u, min(o) AS o FROM seen_deliveries WHERE exposed = 0 GROUP BY u) f ON f.u = m.u;

-- @table exposures
SELECT s.u AS u,
    count(CASE WHEN s.place5 = 1 THEN 1 END) AS e1, count(CASE WHEN s.place5 = 2 THEN 1 END) AS e2,
    count(CASE WHEN s.place5 = 3 THEN 1 END) AS e3, count(CASE WHEN s.place5 = 4 THEN 1 END) AS e4,
    count(CASE WHEN s.place5 = 5 THEN 1 END) AS e5
FROM seen_deliveries s JOIN last_seen l ON l.u = s.u
WHERE s.exposed = 1 OR s.off_o IS NULL OR s.o <= l.last_o
GROUP BY s.u;

-- @table off_after
SELECT l.u AS u, CASE WHEN l.off_o IS NULL THEN 0 ELSE 1 END AS off, CASE WHEN l.off_o IS NULL THEN NULL ELSE coalesce(s.place5, 0) END AS place
FROM last_seen l LEFT JOIN seen_deliveries s ON s.u = l.u AND s.o = l.last_o;
