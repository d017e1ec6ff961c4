-- Drives `wayfind lsp` from headless Neovim's built-in client and writes
-- what it saw to $WAYFIND_OUT (JSON) for lsp/clients_test.go.
-- nvim --headless -u NONE -c 'luafile check.lua'
local bin, project, out_file = os.getenv('WAYFIND_BIN'), os.getenv('WAYFIND_PROJECT'), os.getenv('WAYFIND_OUT')
local out = { errors = {} }

local function finish()
  local f = io.open(out_file, 'w')
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local id = vim.lsp.start_client({
    cmd = { bin, 'lsp' },
    root_dir = project,
    workspace_folders = { { uri = vim.uri_from_fname(project), name = 'project' } },
    init_options = { history = { size = 16 } },
  })
  assert(id, 'start_client failed')
  local client = vim.lsp.get_client_by_id(id)
  assert(vim.wait(10000, function() return client.initialized end, 10), 'not initialized')

  -- find/* wait for the first index themselves.
  local function req(method, params)
    local res, e = client.request_sync(method, params, 10000, 0)
    if not res then table.insert(out.errors, method .. ': ' .. tostring(e)); return nil end
    if res.err then table.insert(out.errors, method .. ': ' .. vim.inspect(res.err)); return nil end
    return res.result
  end
  out.resolve = req('find/resolvePath', { path = 'src/auth/midleware.py:2' })
  out.status = req('find/status', {}) -- answers at once; the request above waited for the index
  out.files = req('find/files', { query = 'midlware', limit = 3 })
  out.pathFiles = req('find/files', { query = 'authmid', limit = 3 }) -- directory + name
  out.locate = req('find/locate', { query = 'where is the auth middleware implemented' })
  out.workspaceSymbol = req('workspace/symbol', { query = 'Socket' })
  out.documentSymbol = req('textDocument/documentSymbol', { textDocument = { uri = vim.uri_from_fname(project .. '/include/net/socket.h') } })

  -- A document with broken path literals, opened the way a user would.
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/docs/guide.md'))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, id)
  assert(vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 10), 'no diagnostics')
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, message = d.message, source = d.source })
  end
  local links = client.request_sync('textDocument/documentLink', { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 10000, buf)
  out.links = links and links.result

  client.stop()
  vim.wait(2000, function() return client.is_stopped() end, 10)
  out.stopped = client.is_stopped()
end)
if not ok then table.insert(out.errors, tostring(err)) end
finish()
