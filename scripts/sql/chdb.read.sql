-- ClickHouse (chDB): the telemetry lines as the table `t` of features.sql. scripts/features makes
-- `lines(file, n, line)` first: the files read as `LineAsString` by one thread, each line
-- numbered (`rowNumberInAllBlocks`), so a user's lines keep the file's own order. Words are
-- `Nullable(String)` (absent: NULL); booleans 1 and 0 from their raw text, as the reader has them.

-- @table t
SELECT
    JSONExtract(line, 'user', 'String') AS u,
    JSONExtract(line, 'ruleset', 'String') AS ruleset,
    JSONExtract(line, 'day', 'Int64') AS day,
    JSONExtract(line, 'minute', 'Int64') AS minute,
    day * 1440 + minute AS clock,
    JSONExtract(line, 'kind', 'Nullable(String)') AS kind,
    JSONExtract(line, 'cause', 'Nullable(String)') AS cause,
    JSONExtract(line, 'action', 'Nullable(String)') AS action,
    JSONExtract(line, 'type', 'Nullable(String)') AS type,
    JSONExtract(line, 'routine', 'Nullable(String)') AS routine,
    JSONExtract(line, 'response', 'Nullable(String)') AS response,
    JSONExtract(line, 'key', 'Nullable(String)') AS setting_key,
    JSONExtract(line, 'choice', 'Nullable(String)') AS choice,
    JSONExtract(line, 'route', 'Nullable(String)') AS route,
    JSONExtract(line, 'result', 'Nullable(String)') AS result,
    JSONExtract(line, 'steps_permission', 'Nullable(String)') AS steps_permission,
    JSONExtract(line, 'sleep_permission', 'Nullable(String)') AS sleep_permission,
    JSONExtract(line, 'value', 'Nullable(Float64)') AS value,
    multiIf(JSONExtractRaw(line, 'checked') = 'true', 1., JSONExtractRaw(line, 'checked') = 'false', 0., toFloat64OrNull(JSONExtractRaw(line, 'checked')))
        AS checked,
    multiIf(JSONExtractRaw(line, 'on') = 'true', 1., JSONExtractRaw(line, 'on') = 'false', 0., toFloat64OrNull(JSONExtractRaw(line, 'on'))) AS turned_on,
    multiIf(JSONExtractRaw(line, 'set') = 'true', 1., JSONExtractRaw(line, 'set') = 'false', 0., toFloat64OrNull(JSONExtractRaw(line, 'set'))) AS is_set,
    JSONExtract(line, 'at', 'Nullable(Float64)') AS at_minute,
    JSONExtract(line, 'sleep', 'Nullable(Float64)') AS sleep,
    JSONExtract(line, 'wake', 'Nullable(Float64)') AS wake,
    JSONExtract(line, 'steps', 'Nullable(Float64)') AS steps,
    trunc(steps) AS steps_whole,
    -- A user's lines in the order the app wrote them: by `seq` (lines written before it was are
    -- first, in the files' order), then the place in the file.
    row_number() OVER (PARTITION BY JSONExtract(line, 'user', 'String') ORDER BY JSONExtract(line, 'seq', 'Nullable(Int64)') NULLS FIRST, file, n) AS o
FROM lines
WHERE trim(line) <> '';
