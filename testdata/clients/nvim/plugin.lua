-- Drives the wayfind Neovim plugin (nvim/) headless, as a user would, and
-- writes what it saw to $WAYFIND_OUT (JSON) for lsp/clients_test.go.
local bin, project, out_file, plugin = os.getenv('WAYFIND_BIN'), os.getenv('WAYFIND_PROJECT'), os.getenv('WAYFIND_OUT'), os.getenv('WAYFIND_PLUGIN')
local out = { errors = {} }

local function here()
  return { file = vim.api.nvim_buf_get_name(0), line = vim.api.nvim_win_get_cursor(0)[1] }
end

local function qf()
  local r = {}
  for _, e in ipairs(vim.fn.getqflist()) do
    table.insert(r, { file = vim.api.nvim_buf_get_name(e.bufnr), lnum = e.lnum, text = e.text })
  end
  return r
end

local ok, err = pcall(function()
  vim.opt.runtimepath:append(plugin)
  local wayfind = require('wayfind')
  wayfind.setup { cmd = { bin, 'lsp' }, gf = true, visit_debounce_ms = 50 }

  -- Opening a file starts the server, rooted at the .git above it.
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/src/net/socket_posix.cc'))
  assert(vim.wait(10000, function()
    local cs = vim.lsp.get_active_clients()
    return #cs == 1 and cs[1].initialized
  end, 10), 'the server did not start')
  out.root = vim.lsp.get_active_clients()[1].config.root_dir
  out.attached = vim.lsp.buf_is_attached(0, vim.lsp.get_active_clients()[1].id)

  vim.cmd('WayfindFind replay service')
  out.find = { at = here(), qf = qf() }

  vim.cmd('WayfindFind srcnetsock') -- a few letters of each directory, then of the name
  out.find_path = { at = here(), qf = qf() }

  vim.cmd('WayfindResolve include/sesion.h')
  out.resolve_arg = here()

  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/docs/notes.md'))
  vim.api.nvim_win_set_cursor(0, { 3, 12 })
  out.under_cursor = wayfind.path_under_cursor()
  vim.cmd('WayfindResolve')
  out.resolve_cursor = here()

  vim.cmd('WayfindResolve util.cpp') -- two files of that name: the candidates
  out.ambiguous = { at = here(), qf = qf() }

  out.unresolved = {
    nothing = wayfind.unresolved_message('x.c', { candidates = {} }),
    pending = wayfind.unresolved_message('util.cpp', { candidates = { {} }, historyPending = true }),
  }
  out.history_message = wayfind.history_message('deleted',
    { path = 'loader.c', commit = '3f2a1c9e0d1b2c3a', date = '2024-05-01', subject = 'remove legacy loader' })

  vim.cmd('WayfindLocate where is Socket implemented')
  out.locate = { at = here(), qf = qf() }

  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/docs/notes.md'))
  vim.api.nvim_win_set_cursor(0, { 5, 8 })
  vim.cmd('normal gf')
  out.gf = here()

  -- select = true: the same answers through vim.ui.select (stubbed here
  -- to record the choices offered and take the first).
  wayfind.config.select = true
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = { prompt = opts.prompt, first = opts.format_item(items[1]), n = #items }
    on_choice(items[1])
  end
  vim.cmd('WayfindFind command router')
  out.select = { at = here(), offered = offered }
  wayfind.config.select = false

  -- Buffers entered and kept report visits; :WayfindFind with no words
  -- lists the recent files, the current one left out. Buffers passed
  -- through faster than the debounce are not visits.
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/include/replay_service.h'))
  vim.wait(300)
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/src/main.cpp'))
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/src/session.cpp'))
  vim.wait(300)
  vim.cmd('WayfindFind')
  out.recent = { at = here(), qf = qf() }

  out.clients = #vim.lsp.get_active_clients() -- one server for the whole tree
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    c.stop()
  end
  vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 10)
end)
if not ok then
  table.insert(out.errors, tostring(err))
end
local f = io.open(out_file, 'w')
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd('qa!')
