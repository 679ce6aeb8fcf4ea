-- Spark SQL: the telemetry lines as the table `t` of features.sql. scripts/features makes
-- `lines(file, n, line)` first: each file one split (`spark.sql.files.maxPartitionBytes`), its
-- lines numbered by `monotonically_increasing_id()`, which rises through a split, so a user's
-- lines keep the file's own order. `get_json_object` gives every value as text: numbers are
-- cast (`try_cast`: what is not a number is NULL), booleans are 1 and 0, as the reader has them.

-- @table t
SELECT
    get_json_object(line, '$.user') AS u,
    get_json_object(line, '$.ruleset') AS ruleset,
    CAST(get_json_object(line, '$.day') AS BIGINT) AS day,
    CAST(get_json_object(line, '$.minute') AS BIGINT) AS minute,
    CAST(get_json_object(line, '$.day') AS BIGINT) * 1440 + CAST(get_json_object(line, '$.minute') AS BIGINT) AS clock,
    get_json_object(line, '$.kind') AS kind,
    get_json_object(line, '$.cause') AS cause,
    get_json_object(line, '$.action') AS action,
    get_json_object(line, '$.type') AS type,
    get_json_object(line, '$.routine') AS routine,
    get_json_object(line, '$.response') AS response,
    get_json_object(line, '$.key') AS setting_key,
    get_json_object(line, '$.choice') AS choice,
    get_json_object(line, '$.route') AS route,
    get_json_object(line, '$.result') AS result,
    get_json_object(line, '$.steps_permission') AS steps_permission,
    get_json_object(line, '$.sleep_permission') AS sleep_permission,
    try_cast(get_json_object(line, '$.value') AS DOUBLE) AS value,
    CASE get_json_object(line, '$.checked') WHEN 'true' THEN 1D WHEN 'false' THEN 0D ELSE try_cast(get_json_object(line, '$.checked') AS DOUBLE) END
        AS checked,
    CASE get_json_object(line, '$.on') WHEN 'true' THEN 1D WHEN 'false' THEN 0D ELSE try_cast(get_json_object(line, '$.on') AS DOUBLE) END AS turned_on,
    CASE get_json_object(line, '$.set') WHEN 'true' THEN 1D WHEN 'false' THEN 0D ELSE try_cast(get_json_object(line, '$.set') AS DOUBLE) END AS is_set,
    try_cast(get_json_object(line, '$.at') AS DOUBLE) AS at_minute,
    try_cast(get_json_object(line, '$.sleep') AS DOUBLE) AS sleep,
    try_cast(get_json_object(line, '$.wake') AS DOUBLE) AS wake,
    try_cast(get_json_object(line, '$.steps') AS DOUBLE) AS steps,
    -- The whole steps (Spark's own rounding functions return integers, which a double may exceed).
    try_cast(get_json_object(line, '$.steps') AS DOUBLE) - try_cast(get_json_object(line, '$.steps') AS DOUBLE) % 1D AS steps_whole,
    -- A user's lines in the order the app wrote them: by `seq` (lines written before it was are
    -- first, in the files' order), then the place in the file.
    row_number() OVER (PARTITION BY get_json_object(line, '$.user') ORDER BY CAST(get_json_object(line, '$.seq') AS BIGINT) NULLS FIRST, file, n) AS o
FROM lines
WHERE trim(line) <> '';
