-- DuckDB: the telemetry lines as the table `t` of features.sql. scripts/features makes
-- `lines(file, n, line)` first: each file's text split at its line feeds and numbered, so a
-- user's lines keep the file's own order (a scan's order is not promised).

-- @table t
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
    line ->> '$.key' AS setting_key,
    line ->> '$.choice' AS choice,
    line ->> '$.route' AS route,
    line ->> '$.result' AS result,
    line ->> '$.steps_permission' AS steps_permission,
    line ->> '$.sleep_permission' AS sleep_permission,
    -- Numbers, booleans as 0 and 1 (as the reader has them).
    (line -> '$.value')::DOUBLE AS value,
    CASE (line ->> '$.checked') WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE (line ->> '$.checked')::DOUBLE END AS checked,
    CASE (line ->> '$.on') WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE (line ->> '$.on')::DOUBLE END AS turned_on,
    CASE (line ->> '$.set') WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE (line ->> '$.set')::DOUBLE END AS is_set,
    (line -> '$.at')::DOUBLE AS at_minute,
    (line -> '$.sleep')::DOUBLE AS sleep,
    (line -> '$.wake')::DOUBLE AS wake,
    (line -> '$.steps')::DOUBLE AS steps,
    trunc((line -> '$.steps')::DOUBLE) AS steps_whole,
    -- A user's lines in the order the app wrote them: by `seq` (lines written before it was are
    -- first, in the files' order), then the place in the file.
    row_number() OVER (PARTITION BY line ->> '$.user' ORDER BY (line ->> '$.seq')::BIGINT NULLS FIRST, file, n) AS o
FROM lines
WHERE trim(line) <> '';
