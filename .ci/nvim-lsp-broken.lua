-- End-to-end test of `rules lsp` on a broken workspace, with a real client: Neovim (0.7,
-- headless). RULES_ROOT: a copy of the shipped ruleset whose rules/route.yaml misspells a fact
-- on disk and whose rules/leak.yaml links to a secret outside the tree; RULES_BIN: the rules
-- binary. Without editing anything: completion and hover answer in rules/notifications.yaml,
-- the broken file shows its error and a note of what the editor does without, and the
-- outline of the link out of the tree says nothing of the secret. Exits non-zero on any failure.
local common = dofile(".ci/nvim-lsp-common.lua")
local root, fail, request = common.root, common.fail, common.request
local buf, client = common.start("rules/notifications.yaml")
local trow, tcol
for index, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  local at = line:find("template: checkin_ready", 1, true)
  if at then trow, tcol = index - 1, at - 1 + #"template: checkin_re" break end
end
if not trow then fail("notifications.yaml names no checkin_ready template") end
local where = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = trow, character = tcol } }
local completion = request(buf, "textDocument/completion", where) or {}
local labels = {}
for _, item in ipairs(completion.items or completion) do labels[item.label] = true end
if not labels["checkin_ready"] then fail("completion after 'template: checkin_re' offers nothing while route.yaml is broken") end
print("completion offers checkin_ready while route.yaml is broken")
local hover = request(buf, "textDocument/hover", where)
local value = hover and hover.contents and hover.contents.value or ""
if not value:find("template checkin_ready", 1, true) then fail("hover on the template id says: " .. value) end
print("hover shows the template while route.yaml is broken")
-- The broken file: its error, and the note of what completion and hover do without.
local route = vim.fn.bufadd(root .. "/rules/route.yaml")
vim.fn.bufload(route)
vim.lsp.buf_attach_client(route, client)
if not vim.wait(10000, function()
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(route)) do codes[d.code] = true end
  return codes["type.unknown_fact"] and codes["lsp.partial_ruleset"]
end, 50) then fail("route.yaml does not show its error and the partial-ruleset note") end
print("route.yaml shows type.unknown_fact and lsp.partial_ruleset")
-- The link out of the tree: no outline of the secret.
local symbols = request(buf, "textDocument/documentSymbol", { textDocument = { uri = vim.uri_from_fname(root .. "/rules/leak.yaml") } }) or {}
for _, symbol in ipairs(symbols) do
  if tostring(symbol.name):find("SECRET", 1, true) then fail("the outline of a link out of the tree shows " .. symbol.name) end
end
if #symbols > 0 then fail("the outline of a link out of the tree has " .. #symbols .. " symbols") end
print("a link out of the tree has no outline")
vim.lsp.stop_client(client)
vim.cmd("qall!")
