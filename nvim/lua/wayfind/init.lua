-- wayfind for Neovim: starts `wayfind lsp` for every file buffer and adds
-- :WayfindFind, :WayfindResolve and :WayfindLocate over its custom
-- requests. Neovim 0.7 and later.
--
--   require('wayfind').setup {
--     cmd = { 'wayfind', 'lsp' },   -- the server
--     select = false,               -- true: vim.ui.select pickers instead of quickfix
--     gf = false,                   -- true: gf resolves the path under the cursor
--     init_options = {},            -- the server's initializationOptions
--     visit_debounce_ms = 500,      -- a buffer entered and kept this long was visited
--   }
local M = {}

M.config = {
  cmd = { 'wayfind', 'lsp' },
  select = false,
  gf = false,
  init_options = {},
  root_markers = { '.git' },
  -- A buffer the user stays in this long was visited (find/visited);
  -- buffers passed through on the way (:bnext, :bnext) were not.
  visit_debounce_ms = 500,
}

local clients = {} -- root directory → client id

-- root_for returns the directory holding the nearest root marker above
-- the buffer's file, else the current directory.
local function root_for(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.finddir(marker, dir .. ';')
    if found == '' then
      found = vim.fn.findfile(marker, dir .. ';') -- a worktree's .git is a file
    end
    if found ~= '' then
      return vim.fn.fnamemodify(vim.fn.fnamemodify(found, ':p'):gsub('/$', ''), ':h')
    end
  end
  return vim.fn.getcwd()
end

-- attach starts (or reuses) the server for the buffer's root.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype ~= '' or vim.api.nvim_buf_get_name(bufnr) == '' then
    return
  end
  local root = root_for(bufnr)
  local id = clients[root]
  if id and not vim.lsp.get_client_by_id(id) then
    id = nil -- it stopped
  end
  if not id then
    local conf = {
      name = 'wayfind',
      cmd = M.config.cmd,
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      -- An empty Lua table would go out as [], not {}.
      init_options = next(M.config.init_options) and M.config.init_options or vim.empty_dict(),
    }
    if vim.lsp.start then -- 0.8+: starts or reuses, and attaches
      id = vim.lsp.start(conf, { bufnr = bufnr })
      clients[root] = id
      return
    end
    id = vim.lsp.start_client(conf)
    if not id then
      vim.notify('wayfind: cannot start ' .. table.concat(M.config.cmd, ' '), vim.log.levels.ERROR)
      return
    end
    clients[root] = id
  end
  if not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

-- client returns the wayfind client for the current buffer (starting one
-- when the buffer has none).
local function client()
  local bufnr = vim.api.nvim_get_current_buf()
  M.attach(bufnr)
  local id = clients[root_for(bufnr)]
  local c = id and vim.lsp.get_client_by_id(id)
  if not c then
    for _, cl in pairs(vim.lsp.get_active_clients()) do
      if cl.name == 'wayfind' then
        return cl
      end
    end
  end
  return c
end

local function request(method, params)
  local c = client()
  if not c then
    vim.notify('wayfind: no server (is `wayfind` on PATH? see setup{cmd=…})', vim.log.levels.ERROR)
    return nil
  end
  if not vim.wait(10000, function() return c.initialized end, 10) then
    vim.notify('wayfind: the server did not start', vim.log.levels.ERROR)
    return nil
  end
  local res, err = c.request_sync(method, params, 30000, vim.api.nvim_get_current_buf())
  if not res then
    vim.notify('wayfind: ' .. method .. ': ' .. tostring(err), vim.log.levels.ERROR)
    return nil
  end
  if res.err then
    vim.notify('wayfind: ' .. (res.err.message or vim.inspect(res.err)), vim.log.levels.WARN)
    return nil
  end
  return res.result
end

-- path_under_cursor returns the path-like word at the cursor, with a
-- :line[:col] or (line,col) suffix kept for the server to read.
function M.path_under_cursor(line, col)
  line = line or vim.api.nvim_get_current_line()
  col = col or (vim.api.nvim_win_get_cursor(0)[2] + 1)
  local ok = '[%w_%-%.~/\\@%+%$%%=:#\128-\255]'
  local s, e = col, col
  while s > 1 and line:sub(s - 1, s - 1):match(ok) do
    s = s - 1
  end
  while e <= #line and line:sub(e, e):match(ok) do
    e = e + 1
  end
  local word = line:sub(s, e - 1):gsub('[%.:,;]+$', ''):gsub('^[:#]+', '')
  local paren = line:sub(e):match('^%(%d+,%s*%d+%)')
  if paren and word ~= '' then
    word = word .. paren
  end
  if word == '' or not word:match('[/\\]') and not word:match('%.%w+') then
    return nil
  end
  return word
end

local function fname(uri)
  return vim.uri_to_fname(uri)
end

-- show puts items in the quickfix list and jumps to the first, or offers
-- them through vim.ui.select when setup{select = true}.
local function show(title, items)
  if #items == 0 then
    vim.notify('wayfind: ' .. title .. ': nothing found', vim.log.levels.INFO)
    return
  end
  if M.config.select then
    vim.ui.select(items, {
      prompt = title,
      format_item = function(it) return vim.fn.fnamemodify(it.filename, ':.') .. ':' .. it.lnum .. '  ' .. it.text end,
    }, function(choice)
      if choice then
        vim.cmd('edit ' .. vim.fn.fnameescape(choice.filename))
        vim.api.nvim_win_set_cursor(0, { choice.lnum, math.max(choice.col - 1, 0) })
      end
    end)
    return
  end
  vim.fn.setqflist({}, ' ', { title = 'wayfind: ' .. title, items = items })
  vim.cmd('cfirst')
end

local function loc_item(uri, range, text)
  local lnum, col = 1, 1
  if range then
    lnum, col = range.start.line + 1, range.start.character + 1
  end
  return { filename = fname(uri), lnum = lnum, col = col, text = text }
end

-- visit reports the buffer the user settled in to its server as
-- find/visited (reason focus): debounced, file buffers inside the
-- server's root only, not the same file twice in a row. It never starts
-- a server; the buffer's didOpen already counts as its first visit.
local visit_timer, last_visited
function M.visit(bufnr)
  if visit_timer and not visit_timer:is_closing() then
    visit_timer:stop()
    visit_timer:close()
  end
  visit_timer = vim.defer_fn(function()
    if not vim.api.nvim_buf_is_valid(bufnr) or bufnr ~= vim.api.nvim_get_current_buf() or vim.bo[bufnr].buftype ~= '' then
      return
    end
    local name = vim.api.nvim_buf_get_name(bufnr)
    local root = root_for(bufnr)
    local id = clients[root]
    local c = id and vim.lsp.get_client_by_id(id)
    if name == '' or name == last_visited or not c or not c.initialized
      or vim.fn.fnamemodify(name, ':p'):sub(1, #root + 1) ~= root .. '/' then
      return
    end
    last_visited = name
    c.notify('find/visited', { uri = vim.uri_from_bufnr(bufnr), reason = 'focus' })
  end, M.config.visit_debounce_ms)
end

-- find lists the files matching query into the quickfix list; with no
-- query, the files visited most recently (the current one left out).
function M.find(query)
  query = query or ''
  local res = request('find/files', { query = query, limit = 50, current = vim.uri_from_bufnr(0) })
  if not res then
    return
  end
  local items = {}
  for _, m in ipairs(res.matches or {}) do
    table.insert(items, loc_item(m.uri, nil, string.format('%.2f %s', m.score, m.reason or table.concat(m.matchedIn, ','))))
  end
  show(query ~= '' and 'find ' .. query or 'recent files', items)
end

-- One line for what the repository's history did to an old path:
-- loader.c was deleted in 3f2a1c9 (2024-05-01) "remove legacy loader".
function M.history_message(what, n, to)
  local where = (what == 'moved' and to) and (' to ' .. to) or ''
  return string.format('%s was %s%s in %s (%s) "%s"', n.path, what, where, n.commit:sub(1, 7), n.date, n.subject)
end

-- What is said of a path nothing resolved: that nothing matches it, or
-- the candidates' heading; while the repository's history is being read
-- (historyPending), that asking again in a moment may find it.
function M.unresolved_message(path, res)
  local said = #(res.candidates or {}) == 0 and ('nothing in the workspace matches ' .. path)
    or ('no file is clearly ' .. path .. '; candidates')
  if res.historyPending then
    said = said .. " (the repository's history is still being read: ask again in a moment)"
  end
  return said
end

function M.resolve(path)
  -- A path read from the buffer is read relative to it (from); one typed
  -- on the command line is only near where you are (current).
  local params = { current = vim.uri_from_bufnr(0) }
  if not path or path == '' then
    path = M.path_under_cursor()
    params = { from = vim.uri_from_bufnr(0) }
  end
  if not path then
    vim.notify('wayfind: no path under the cursor', vim.log.levels.INFO)
    return
  end
  params.path = path
  local res = request('find/resolvePath', params)
  if not res then
    return
  end
  if res.resolved then
    local it = loc_item(res.resolved.uri, res.resolved.range, '')
    vim.cmd('edit ' .. vim.fn.fnameescape(it.filename))
    vim.api.nvim_win_set_cursor(0, { it.lnum, math.max(it.col - 1, 0) })
    if res.moved then
      vim.notify('wayfind: ' .. M.history_message('moved', res.moved, res.resolved.path), vim.log.levels.INFO)
    end
    return
  end
  if res.gone then
    -- The file is gone: say so, and when; there is nothing to open.
    vim.notify('wayfind: ' .. M.history_message('deleted', res.gone), vim.log.levels.INFO)
    return
  end
  if #(res.candidates or {}) == 0 then
    vim.notify('wayfind: ' .. M.unresolved_message(path, res), vim.log.levels.INFO)
    return
  end
  local items = {}
  for _, c in ipairs(res.candidates) do
    table.insert(items, loc_item(c.uri, c.range, string.format('%.2f %s', c.score, table.concat(c.reasons or {}, ', '))))
  end
  show(M.unresolved_message(path, res), items)
end

function M.locate(question)
  local res = request('find/locate', { query = question, current = vim.uri_from_bufnr(0) })
  if not res then
    return
  end
  local items = {}
  for _, h in ipairs(res.results or {}) do
    table.insert(items, loc_item(h.uri, h.range, h.reason)) -- the reason names its strategy
  end
  show(string.format('%s (confidence %.2f, tried %s)', res.term, res.confidence, table.concat(res.strategies, ', ')), items)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  local group = vim.api.nvim_create_augroup('wayfind', { clear = true })
  vim.api.nvim_create_autocmd('BufReadPost', {
    group = group,
    callback = function(ev) M.attach(ev.buf) end,
  })
  vim.api.nvim_create_autocmd('BufEnter', {
    group = group,
    callback = function(ev) M.visit(ev.buf) end,
  })
  vim.api.nvim_create_user_command('WayfindFind', function(a) M.find(a.args) end, { nargs = '*', desc = 'wayfind: fuzzy file search into the quickfix list (no words: recent files)' })
  vim.api.nvim_create_user_command('WayfindResolve', function(a) M.resolve(a.args) end, { nargs = '?', complete = 'file', desc = 'wayfind: open the file a path meant' })
  vim.api.nvim_create_user_command('WayfindLocate', function(a) M.locate(a.args) end, { nargs = '+', desc = 'wayfind: where is X implemented' })
  if M.config.gf then
    vim.keymap.set('n', 'gf', function() M.resolve() end, { desc = 'wayfind: resolve the path under the cursor' })
  end
  -- Buffers already open when setup runs.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      M.attach(b)
    end
  end
end

return M
