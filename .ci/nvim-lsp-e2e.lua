-- End-to-end test of `rules lsp` with a real client: Neovim (0.7, headless).
-- RULES_ROOT: a copy of the shipped ruleset (the buffer is edited, never saved);
-- RULES_BIN: the rules binary. Opens rules/route.yaml, types an error, waits for the
-- diagnostic, types the fix, waits for it to clear; completes a fact inside the expression;
-- hovers a template id and goes to its definition; types the error again and applies the
-- quick fix. Exits non-zero on any failure.
local common = dofile(".ci/nvim-lsp-common.lua")
local root, fail, request = common.root, common.fail, common.request
local buf, client = common.start("rules/route.yaml")
-- Type an error: "completion_rate" loses its last letter.
local row, col
for index, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  local at = line:find("completion_rate < 0.6", 1, true)
  if at then row, col = index - 1, at - 1 + 14 break end
end
if not row then fail("route.yaml has no 'completion_rate < 0.6'") end
vim.api.nvim_buf_set_text(buf, row, col, row, col + 1, {})
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then fail("no diagnostic appeared") end
local found = vim.diagnostic.get(buf)[1]
print(string.format("diagnostic %s at %d:%d: %s", tostring(found.code), found.lnum, found.col, found.message))
if found.code ~= "type.unknown_fact" then fail("expected type.unknown_fact, got " .. tostring(found.code)) end
if found.lnum ~= row then fail("the diagnostic is on line " .. found.lnum .. ", the edit on " .. row) end
-- Type the fix: the diagnostic clears.
vim.api.nvim_buf_set_text(buf, row, col, row, col, { "e" })
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) == 0 end, 50) then fail("the diagnostic did not clear") end
print("cleared after the fix")
-- Complete a fact inside the expression: after "completion_ra".
local completion = request(buf, "textDocument/completion", { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col - 1 } })
local labels = {}
for _, item in ipairs(completion.items or completion) do labels[item.label] = true end
if not labels["completion_rate"] then fail("completion after 'completion_ra' does not offer completion_rate") end
print("completion offers completion_rate")
-- Hover a template id and go to its definition, in rules/notifications.yaml.
local other = vim.fn.bufadd(root .. "/rules/notifications.yaml")
vim.fn.bufload(other)
vim.lsp.buf_attach_client(other, client)
local trow, tcol
for index, line in ipairs(vim.api.nvim_buf_get_lines(other, 0, -1, false)) do
  local at = line:find("template: checkin_ready", 1, true)
  if at then trow, tcol = index - 1, at - 1 + #"template: checkin_re" break end
end
if not trow then fail("notifications.yaml names no checkin_ready template") end
local where = { textDocument = { uri = vim.uri_from_bufnr(other) }, position = { line = trow, character = tcol } }
local hover = request(other, "textDocument/hover", where)
local value = hover and hover.contents and hover.contents.value or ""
if not value:find("template checkin_ready", 1, true) then fail("hover on the template id says: " .. value) end
print("hover shows the template")
local definition = request(other, "textDocument/definition", where)
if not definition or not definition.uri or not definition.uri:find("templates/notifications.yaml", 1, true) then
  fail("definition of the template id is not in templates/notifications.yaml")
end
print("definition goes to " .. definition.uri:gsub("^.*/templates/", "templates/") .. ":" .. (definition.range.start.line + 1))
-- A quick fix: the error typed again, its "did you mean" applied.
vim.api.nvim_set_current_buf(buf)
vim.api.nvim_buf_set_text(buf, row, col, row, col + 1, {})
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then fail("no diagnostic for the second error") end
local lsp_diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, row)
local actions = request(buf, "textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = lsp_diagnostics[1].range,
  context = { diagnostics = lsp_diagnostics },
})
if not actions or not actions[1] or not actions[1].edit then fail("no quick fix offered") end
print("quick fix: " .. actions[1].title)
vim.lsp.util.apply_workspace_edit(actions[1].edit, "utf-16")
local fixed = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
if not fixed:find("completion_rate < 0.6", 1, true) then fail("the quick fix left: " .. fixed) end
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) == 0 end, 50) then fail("the diagnostic did not clear after the quick fix") end
print("cleared after the quick fix")
vim.lsp.stop_client(client)
vim.cmd("qall!")
