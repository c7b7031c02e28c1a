-- A list buffer backed by a feed: one line per item and a footer line saying
-- whether more is loading, failed, or the list is complete. The next page
-- loads as the cursor (or the bottom of a window) nears the end; live
-- changes are applied in place, each window's cursor staying on its item.
local config = require("catalogd.config")
local feeds = require("catalogd.feed")
local hl = require("catalogd.highlight")
local names = require("catalogd.names")
local sources = require("catalogd.sources")

local M = {}

local List = {}
List.__index = List

local ns = vim.api.nvim_create_namespace("catalogd_list")
local detail_ns = vim.api.nvim_create_namespace("catalogd_detail")

-- The open lists by buffer number.
M.lists = {}

-- A window to show a new list in: the current one when it holds nothing (a
-- fresh start), else a new split above it.
local function list_window()
  if vim.api.nvim_win_get_config(0).relative ~= "" then
    -- A floating window (the quote) is no place for a list: the window
    -- before it is, else the first one that does not float.
    pcall(vim.cmd, "wincmd p")
    for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      if vim.api.nvim_win_get_config(0).relative == "" then
        break
      end
      if vim.api.nvim_win_get_config(win).relative == "" then
        vim.api.nvim_set_current_win(win)
      end
    end
  end
  local buf = vim.api.nvim_get_current_buf()
  local empty = vim.api.nvim_buf_get_name(buf) == ""
    and not vim.bo[buf].modified
    and vim.api.nvim_buf_line_count(buf) == 1
    and vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == ""
    and vim.bo[buf].buftype == ""
  if not empty then
    vim.cmd("split")
  end
  return vim.api.nvim_get_current_win()
end

--- Opens a list of `source` (products, photos, places) with `query` (its
--- filters); `label` names the buffer. Errors of the daemon (a bad query)
--- are shown and no buffer is made.
function M.open(source, query, label)
  local catalogd = require("catalogd")
  local client = catalogd.ensure()
  if not client then
    return
  end
  local list = setmetatable({
    source = source,
    spec = sources[source],
    query = query,
    label = label,
    shown = {},
    cache = setmetatable({}, { __mode = "k" }),
  }, List)
  list:_open_feed(client, function(err)
    if err then
      catalogd.notify_error(err)
      return
    end
    list:_make_buffer()
    list:render()
    list.feed:load_more()
  end)
  return list
end

function List:_open_feed(client, callback)
  feeds.open(client, self.source, self.query, {
    page_size = config.options.page_size,
    on_event = function(feed, event)
      if feed == self.feed then
        self:_on_event(event)
      end
    end,
  }, function(err, feed)
    if err then
      return callback(err)
    end
    if self.closed then
      feed:close()
      return
    end
    self.feed = feed
    callback(nil)
  end)
end

function List:_make_buffer()
  local buf = vim.api.nvim_create_buf(false, true)
  self.buf = buf
  M.lists[buf] = self
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].modifiable = false
  vim.api.nvim_buf_set_name(buf, names.unique("catalogd://" .. self.source .. (self.label or "")))
  local win = list_window()
  vim.api.nvim_win_set_buf(win, buf)
  vim.api.nvim_win_call(win, function()
    vim.cmd("setlocal cursorline nowrap nonumber norelativenumber")
  end)

  local function map(lhs, fn, desc)
    vim.keymap.set("n", lhs, fn, { buffer = buf, nowait = true, silent = true, desc = "catalogd: " .. desc })
  end
  map("q", function()
    self:close()
  end, "close the list and its feed")
  map("R", function()
    self:refresh()
  end, "refresh the list")
  map("<CR>", function()
    self:open_current()
  end, "open the item's detail")
  if self.source == "products" then
    local form = require("catalogd.form")
    map("a", function()
      form.create()
    end, "new product")
    map("e", function()
      local item = self:current_item()
      if item then
        form.edit(item.id)
      end
    end, "edit the product")
    map("dd", function()
      self:delete_current()
    end, "delete the product")
  end

  local group = vim.api.nvim_create_augroup("catalogd_list_" .. buf, { clear = true })
  vim.api.nvim_create_autocmd("CursorMoved", {
    group = group,
    buffer = buf,
    callback = function()
      self:maybe_load()
    end,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = buf,
    callback = function()
      self:_dispose()
    end,
  })
  vim.bo[buf].filetype = "catalogd_" .. self.source
end

--- The item under the cursor of the current window (nil on the footer).
function List:current_item()
  if not self.feed then
    return nil
  end
  local row = vim.api.nvim_win_get_cursor(0)[1]
  return self.feed.items[row]
end

function List:_line(item)
  local cached = self.cache[item]
  if not cached then
    local text, highlights = self.spec.format(item)
    cached = { text, highlights }
    self.cache[item] = cached
  end
  return cached[1], cached[2]
end

--- The footer's text and highlight group.
function List:footer()
  local feed = self.feed
  local n = #feed.items
  if feed.state == "refreshing" then
    return "Refreshing…", "CatalogdFooterLoading"
  end
  if feed:busy() then
    return "Loading…", "CatalogdFooterLoading"
  end
  if feed.state == "failed" then
    local msg = feed.error and feed.error.message or "the load failed"
    return ("Failed: %s (R refreshes, <CR> here retries)"):format(msg), "CatalogdFooterFailed"
  end
  if feed.end_reached then
    return n == 0 and "End: no items" or ("End: %d items"):format(n), "CatalogdFooterEnd"
  end
  return ("%d loaded, more below"):format(n), "CatalogdFooter"
end

--- Writes every line and highlight from the feed's items.
function List:render()
  local buf = self.buf
  if not buf or not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local lines, highlights = {}, {}
  for i, item in ipairs(self.feed.items) do
    lines[i], highlights[i] = self:_line(item)
  end
  local footer, footer_group = self:footer()
  lines[#lines + 1] = footer
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  for i, list in ipairs(highlights) do
    for _, h in ipairs(list) do
      hl.add(buf, ns, h[1], i - 1, h[2], h[3])
    end
  end
  hl.add(buf, ns, footer_group, #lines - 1, 0, -1, footer)
  self.shown = self.feed.items
end

local function windows_of(buf)
  local wins = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf then
      wins[#wins + 1] = win
    end
  end
  return wins
end

function List:_on_event(event)
  if not self.buf or not vim.api.nvim_buf_is_valid(self.buf) then
    return
  end
  -- Keep each window's cursor on the item it was on, at the same height in
  -- the window, so that what the user looks at stays where it was (items
  -- move when changes insert or remove rows above them).
  local moved = event.kind == "changes" or event.kind == "reset"
  local old, new = self.shown, self.feed.items
  local index = {}
  if moved then
    for i, item in ipairs(new) do
      if item.id ~= nil and index[item.id] == nil then
        index[item.id] = i
      end
    end
  end
  local views = {}
  for _, win in ipairs(windows_of(self.buf)) do
    local view = vim.api.nvim_win_call(win, vim.fn.winsaveview)
    local item = old[view.lnum]
    local row = view.lnum
    if moved and item and index[item.id] then
      row = index[item.id]
    elseif moved and view.lnum > #old then
      row = #new + 1 -- it was on the footer
    end
    views[win] = { view = view, row = row }
  end
  self:render()
  for win, v in pairs(views) do
    local row = math.max(1, math.min(v.row, #new + 1))
    local topline = math.max(1, v.view.topline + (row - v.view.lnum))
    vim.api.nvim_win_call(win, function()
      vim.fn.winrestview({ lnum = row, col = v.view.col, topline = topline })
    end)
  end
  self:_schedule_load()
end

function List:_schedule_load()
  vim.schedule(function()
    self:maybe_load()
  end)
end

--- Loads the next page when a window's cursor or bottom line is within
--- `load_margin` lines of the end; never while a load runs, after a failed
--- one (R or <CR> on the footer retries), or once the list is complete.
function List:maybe_load()
  local feed = self.feed
  if self.closed or not feed or feed.end_reached or feed:busy() or feed.state == "failed" then
    return
  end
  if not self.buf or not vim.api.nvim_buf_is_valid(self.buf) then
    return
  end
  local near = #feed.items + 1 - config.options.load_margin
  for _, win in ipairs(windows_of(self.buf)) do
    local row = vim.api.nvim_win_get_cursor(win)[1]
    local bottom = vim.api.nvim_win_call(win, function()
      return vim.fn.line("w$")
    end)
    if math.max(row, bottom) >= near then
      feed:load_more()
      return
    end
  end
end

--- Reloads the items (R); a list whose daemon exited is opened again.
function List:refresh()
  local feed = self.feed
  if feed.lost then
    local client = require("catalogd").ensure()
    if not client then
      return
    end
    self:_open_feed(client, function(err)
      if err then
        require("catalogd").notify_error(err)
        return
      end
      self.shown = {}
      self:render()
      self.feed:load_more()
    end)
    return
  end
  if feed.state == "failed" and #feed.items == 0 then
    -- Nothing was loaded: a refresh would reload nothing; load the first page.
    feed:load_more()
    return
  end
  feed:refresh()
end

--- <CR>: the item's detail in a split; on a failed footer, a retry.
function List:open_current()
  local item = self:current_item()
  if not item then
    if self.feed.state == "failed" and not self.feed.lost then
      self.feed:load_more()
    end
    return
  end
  local list_win = vim.api.nvim_get_current_win()
  self.spec.detail(item, function(err, detail)
    if err then
      require("catalogd").notify_error(err)
      return
    end
    self:_show_detail(item, detail, list_win)
  end)
end

function List:_show_detail(item, detail, list_win)
  local buf = self.detail_buf
  if not buf or not vim.api.nvim_buf_is_valid(buf) then
    buf = vim.api.nvim_create_buf(false, true)
    self.detail_buf = buf
    vim.bo[buf].bufhidden = "wipe"
    vim.keymap.set("n", "q", "<Cmd>close<CR>", { buffer = buf, nowait = true, silent = true, desc = "catalogd: close" })
  end
  pcall(vim.api.nvim_buf_set_name, buf, names.unique(("catalogd://%s/%s"):format(self.source, item.id)))
  local lines = { detail.title, "" }
  vim.list_extend(lines, detail.lines)
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  vim.api.nvim_buf_clear_namespace(buf, detail_ns, 0, -1)
  hl.add(buf, detail_ns, "CatalogdTitle", 0, 0, -1, lines[1])
  for i = 3, #lines do
    local colon = lines[i]:find(":", 1, true)
    if colon then
      hl.add(buf, detail_ns, "CatalogdField", i - 1, 0, colon - 1)
    end
  end
  vim.bo[buf].filetype = "catalogd_detail"
  if #windows_of(buf) == 0 then
    -- A split below the list; the cursor stays in the list to browse on.
    local win = vim.api.nvim_win_is_valid(list_win) and list_win or vim.api.nvim_get_current_win()
    vim.api.nvim_win_call(win, function()
      vim.cmd("belowright " .. math.max(3, #lines) .. "split")
      vim.api.nvim_win_set_buf(0, buf)
    end)
  end
end

--- dd in a products list: asks, then deletes the product under the cursor.
function List:delete_current()
  local item = self:current_item()
  if not item then
    return
  end
  local answer = vim.fn.confirm(("Delete %s (#%s)?"):format(item.nameKo or "", item.id), "&Yes\n&No", 2)
  if answer ~= 1 then
    return
  end
  require("catalogd").request("products/delete", { id = item.id }, function(err)
    if err then
      require("catalogd").notify_error(err)
    else
      require("catalogd").notify(("product %s deleted"):format(item.id))
    end
  end)
end

--- q: wipes the buffer, which closes the feed.
function List:close()
  if self.buf and vim.api.nvim_buf_is_valid(self.buf) then
    vim.api.nvim_buf_delete(self.buf, { force = true })
  else
    self:_dispose()
  end
end

function List:_dispose()
  if self.closed then
    return
  end
  self.closed = true
  if self.buf then
    M.lists[self.buf] = nil
  end
  if self.feed then
    self.feed:close()
  end
  if self.detail_buf and vim.api.nvim_buf_is_valid(self.detail_buf) then
    vim.api.nvim_buf_delete(self.detail_buf, { force = true })
  end
end

return M
