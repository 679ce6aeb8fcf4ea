-- What the Neovim tests of `rules lsp` share: RULES_ROOT and RULES_BIN from the environment,
-- `fail`, starting the server on a file of the root, and a synchronous request.
local M = {}
M.root = os.getenv("RULES_ROOT")
M.binary = os.getenv("RULES_BIN")
function M.fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end
-- Opens `file` (relative to the root), starts the server and waits for its answer to initialize.
function M.start(file)
  vim.cmd("edit " .. M.root .. "/" .. file)
  local buf = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({ name = "rules", cmd = { M.binary, "lsp" }, root_dir = M.root })
  if not client then M.fail("the server did not start") end
  vim.lsp.buf_attach_client(buf, client)
  local started = vim.wait(10000, function()
    local c = vim.lsp.get_client_by_id(client)
    return c ~= nil and c.server_capabilities ~= nil and next(c.server_capabilities) ~= nil
  end, 50)
  if not started then M.fail("no answer to initialize") end
  M.client = client
  return buf, client
end
function M.request(bufnr, method, params)
  local answers = vim.lsp.buf_request_sync(bufnr, method, params, 10000) or {}
  local answer = answers[M.client]
  if not answer or answer.err then M.fail(method .. " got no answer") end
  return answer.result
end
return M
