-- A daemon feed and the items it holds, kept by applying its notifications
-- (feeds/pageLoaded, feeds/itemsChanged, feeds/stateChanged) in the order
-- they came, as the Python client's FeedMirror does: from feeds/open (empty)
-- on, the items are what feeds/items {start: 0, end: count} would return. A
-- notification that does not fit (a page that does not start at the end, a
-- step outside the list, a count other than the length after the steps)
-- changes nothing and the items are read again (feeds/items).
local M = {}

local Feed = {}
Feed.__index = Feed

-- The feeds of each client by id, for routing its notifications.
local routes = setmetatable({}, { __mode = "k" })

local function route(client)
  local feeds = routes[client]
  if feeds then
    return feeds
  end
  feeds = {}
  routes[client] = feeds
  for _, method in ipairs({ "feeds/pageLoaded", "feeds/itemsChanged", "feeds/stateChanged" }) do
    client:on_notification(method, function(params)
      local feed = params and feeds[params.feedId]
      if feed then
        feed:apply(method, params)
      end
    end)
  end
  client:on_exit(function()
    for _, feed in pairs(feeds) do
      feed:_lost()
    end
  end)
  return feeds
end

--- Opens a feed of `source` with `query` (the source's filters); calls
--- `callback(err, feed)`. `on_event(feed, event)` is called for each change:
--- event.kind is "page" (changes = one insert at the old end), "changes"
--- (steps in order), "reset" (redraw everything), "state".
function M.open(client, source, query, opts, callback)
  local params = { source = source, changes = "diff" }
  if query and next(query) then
    params.query = query
  end
  if opts.page_size then
    params.pageSize = opts.page_size
  end
  client:request("feeds/open", params, function(err, result)
    if err then
      callback(err)
      return
    end
    local feed = setmetatable({
      client = client,
      source = source,
      query = query,
      id = result.feedId,
      items = {},
      generation = 0,
      count = 0,
      state = result.state or "idle",
      end_reached = result.state == "ended",
      error = nil,
      resyncing = false,
      requesting = false,
      closed = false,
      on_event = opts.on_event or function() end,
    }, Feed)
    route(client)[feed.id] = feed
    callback(nil, feed)
  end)
end

function Feed:_emit(kind, changes)
  self.on_event(self, { kind = kind, changes = changes })
end

--- Whether a load (first page, next page or refresh) is under way.
function Feed:busy()
  return self.requesting or self.state == "loading" or self.state == "refreshing"
end

--- Asks for the next page; nothing when one loads already, the list is
--- complete, or the feed is closed.
function Feed:load_more()
  if self.closed or self.lost or self:busy() or self.end_reached then
    return
  end
  self:_load("feeds/loadMore")
end

--- Reloads the items (pull-to-refresh); the old ones stay until the new arrive.
function Feed:refresh()
  if self.closed or self.lost then
    return
  end
  self:_load("feeds/refresh")
end

function Feed:_load(method)
  self.requesting = true
  self.client:request(method, { feedId = self.id }, function(err, result)
    self.requesting = false
    if self.closed then
      return
    end
    if err then
      -- The daemon reports a failed load as state "failed" with its error;
      -- an error of the request itself (an unknown feed, a daemon gone) is
      -- shown the same way.
      if self.state ~= "failed" or not self.error then
        self.state, self.error = "failed", err
      end
      self:_emit("state")
      return
    end
    if result and result.endReached then
      self.end_reached = true
    end
    self:_emit("state")
  end)
  self:_emit("state")
end

--- Closes the feed in the daemon; its notifications stop.
function Feed:close()
  if self.closed then
    return
  end
  self.closed = true
  local feeds = routes[self.client]
  if feeds then
    feeds[self.id] = nil
  end
  if self.client:alive() then
    self.client:request("feeds/close", { feedId = self.id })
  end
end

function Feed:_lost()
  if self.closed then
    return
  end
  self.lost = true
  self.requesting = false
  self.state = "failed"
  self.error = { message = "the daemon exited; R opens the list again" }
  self:_emit("state")
end

function Feed:apply(method, params)
  local ok, why = pcall(function()
    if method == "feeds/pageLoaded" then
      self:_page_loaded(params)
    elseif method == "feeds/itemsChanged" then
      self:_items_changed(params)
    elseif method == "feeds/stateChanged" then
      self:_state_changed(params)
    end
  end)
  if not ok then
    self:resync(type(why) == "table" and why.out_of_sync or tostring(why))
  end
end

local function out_of_sync(what)
  error({ out_of_sync = what })
end

function Feed:_page_loaded(p)
  local items = p.items or {}
  if p["end"] - p.start ~= #items or (p.reset and p.start ~= 0) then
    out_of_sync(("a page %d..<%d carries %d items"):format(p.start, p["end"], #items))
  end
  self.generation = p.generation
  self.end_reached = p.endReached
  if self.resyncing then
    return
  end
  if p.reset then
    self.items = items
    self.count = #items
    self:_emit("reset")
    return
  end
  if p.start ~= #self.items then
    out_of_sync(("a page starts at %d but %d items are held"):format(p.start, #self.items))
  end
  local at = #self.items
  for _, item in ipairs(items) do
    self.items[#self.items + 1] = item
  end
  self.count = #self.items
  self:_emit("page", { { op = "insert", index = at, items = items } })
end

--- `items` after the steps, as a new list (0-based indices, as sent).
function M.apply_changes(items, changes)
  local out = {}
  for i, item in ipairs(items) do
    out[i] = item
  end
  for n, c in ipairs(changes) do
    local where = ("step %d of %d"):format(n, #changes)
    if c.op == "insert" then
      if c.index < 0 or c.index > #out then
        out_of_sync(("%s inserts at %d into %d items"):format(where, c.index, #out))
      end
      for k, item in ipairs(c.items) do
        table.insert(out, c.index + k, item)
      end
    elseif c.op == "remove" then
      if c.count < 1 or c.index < 0 or c.index + c.count > #out then
        out_of_sync(("%s removes %d at %d from %d items"):format(where, c.count, c.index, #out))
      end
      for _ = 1, c.count do
        table.remove(out, c.index + 1)
      end
    elseif c.op == "update" then
      if c.index < 0 or c.index + #c.items > #out then
        out_of_sync(("%s updates %d at %d of %d items"):format(where, #c.items, c.index, #out))
      end
      for k, item in ipairs(c.items) do
        out[c.index + k] = item
      end
    else
      out_of_sync(where .. " has op " .. tostring(c.op))
    end
  end
  return out
end

function Feed:_items_changed(p)
  self.generation = p.generation
  if self.resyncing then
    self.count = p.count
    return
  end
  local items = M.apply_changes(self.items, p.changes or {})
  if #items ~= p.count then
    out_of_sync(("%d items after the changes, but the daemon holds %d"):format(#items, p.count))
  end
  self.items = items
  self.count = p.count
  if #(p.changes or {}) > 0 then
    self:_emit("changes", p.changes)
  end
end

function Feed:_state_changed(p)
  self.state = p.state
  self.count = p.count
  if p.state == "ended" then
    self.end_reached = true
  end
  local err = p.error
  if err ~= nil and err ~= vim.NIL then
    self.error = err
  elseif p.state == "idle" or p.state == "ended" then
    self.error = nil
  end
  self:_emit("state")
end

--- Reads the items again (feeds/items) after a notification that did not fit.
function Feed:resync(why)
  if self.resyncing or self.closed then
    return
  end
  self.resyncing = true
  self.desync_reason = why
  self.client:request("feeds/items", { feedId = self.id, start = 0, ["end"] = self.count }, function(err, result)
    self.resyncing = false
    if err or self.closed then
      return
    end
    self.items = result.items or {}
    self.count = #self.items
    self:_emit("reset")
  end)
end

return M
