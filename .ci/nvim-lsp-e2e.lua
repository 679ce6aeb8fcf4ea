-- End-to-end test of `rules lsp` with a real client: Neovim (0.7, headless).
-- RULES_ROOT: a copy of the shipped ruleset (the buffer is edited, never saved);
-- RULES_BIN: the rules binary. Opens rules/route.yaml, types an error, waits for the
-- diagnostic, types the fix, waits for it to clear. Exits non-zero on any failure.
local root = os.getenv("RULES_ROOT")
local binary = os.getenv("RULES_BIN")
local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end
vim.cmd("edit " .. root .. "/rules/route.yaml")
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({ name = "rules", cmd = { binary, "lsp" }, root_dir = root })
if not client then fail("the server did not start") end
vim.lsp.buf_attach_client(buf, client)
local started = vim.wait(10000, function()
  local c = vim.lsp.get_client_by_id(client)
  return c ~= nil and c.server_capabilities ~= nil and next(c.server_capabilities) ~= nil
end, 50)
if not started then fail("no answer to initialize") end
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
vim.lsp.stop_client(client)
vim.cmd("qall!")
