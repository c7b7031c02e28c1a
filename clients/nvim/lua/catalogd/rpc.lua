-- One catalogd process and the JSON-RPC session with it: spawned through
-- libuv with pipes, NDJSON framing (one JSON text a line), request ids and
-- their callbacks, notifications to handlers. Everything the process says is
-- handled on the main loop (vim.schedule), in the order it said it, so
-- handlers may touch buffers and windows.
-- vim.uv since Neovim 0.10; vim.loop before (and deprecated after).
local uv = vim.uv or vim.loop

local M = {}

local Client = {}
Client.__index = Client

-- The error a pending call gets when the process is gone: a code no daemon
-- sends, so that callers can tell it from the daemon's own errors.
M.EXITED = -32099

local function exited_error(client)
  return {
    code = M.EXITED,
    message = "catalogd exited" .. (client.exit_code and (" (status " .. client.exit_code .. ")") or ""),
  }
end

--- Starts `cmd` (a list: the program and its arguments) and sends
--- `initialize`. Requests made before its reply wait for it: the daemon
--- answers -32002 to anything sent before the session started.
--- Returns the client, or nil and a message when the program cannot start.
function M.start(cmd, opts)
  opts = opts or {}
  local self = setmetatable({
    cmd = cmd,
    next_id = 1,
    pending = {}, -- id -> callback(err, result)
    handlers = {}, -- method -> list of function(params)
    exit_handlers = {},
    queue = {}, -- lines written once initialize answered
    ready = false,
    closing = false,
    stderr_tail = {},
    sent = {}, -- method -> requests sent, for tests and :checkhealth
  }, Client)
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local args = {}
  for i = 2, #cmd do
    args[#args + 1] = cmd[i]
  end
  local ok, handle, pid = pcall(uv.spawn, cmd[1], {
    args = args,
    stdio = { stdin, stdout, stderr },
    env = opts.env,
    cwd = opts.cwd,
  }, function(code, signal)
    self.exit_code, self.exit_signal = code, signal
    vim.schedule(function()
      self:_on_exit()
    end)
  end)
  if not ok or not handle then
    for _, pipe in ipairs({ stdin, stdout, stderr }) do
      pipe:close()
    end
    return nil, tostring(ok and pid or handle)
  end
  self.handle, self.pid = handle, pid
  self.stdin, self.stdout, self.stderr = stdin, stdout, stderr

  local partial = ""
  stdout:read_start(function(err, data)
    if err or not data then
      return
    end
    -- Split here (a fast callback) and decode on the main loop, keeping the
    -- order of the lines across chunks.
    partial = partial .. data
    local lines = {}
    while true do
      local nl = partial:find("\n", 1, true)
      if not nl then
        break
      end
      lines[#lines + 1] = partial:sub(1, nl - 1)
      partial = partial:sub(nl + 1)
    end
    if #lines > 0 then
      vim.schedule(function()
        for _, line in ipairs(lines) do
          self:_on_line(line)
        end
      end)
    end
  end)
  local err_partial = ""
  stderr:read_start(function(err, data)
    if err or not data then
      return
    end
    err_partial = err_partial .. data
    while true do
      local nl = err_partial:find("\n", 1, true)
      if not nl then
        break
      end
      table.insert(self.stderr_tail, err_partial:sub(1, nl - 1))
      if #self.stderr_tail > 20 then
        table.remove(self.stderr_tail, 1)
      end
      err_partial = err_partial:sub(nl + 1)
    end
  end)

  self:_send({
    jsonrpc = "2.0",
    id = self:_take_id(),
    method = "initialize",
    params = opts.initialize or vim.empty_dict(),
  }, function(err, result)
    if err then
      -- Nothing queued can run: fail each call with the reason.
      self.init_error = err
      self.queue = {}
      local pending = self.pending
      self.pending = {}
      for _, callback in pairs(pending) do
        callback(err)
      end
      return
    end
    self.server_info = result.serverInfo
    self.ready = true
    self:_write({ jsonrpc = "2.0", method = "initialized", params = vim.empty_dict() })
    for _, line in ipairs(self.queue) do
      self:_write_line(line)
    end
    self.queue = {}
  end, true)
  return self
end

function Client:_take_id()
  local id = self.next_id
  self.next_id = id + 1
  return id
end

function Client:_write_line(line)
  if self.stdin and not self.stdin:is_closing() then
    self.stdin:write(line .. "\n")
  end
end

function Client:_write(message)
  self:_write_line(vim.json.encode(message))
end

function Client:_send(message, callback, now)
  if message.id ~= nil then
    self.pending[message.id] = callback or function() end
  end
  if now or self.ready then
    self:_write(message)
  else
    self.queue[#self.queue + 1] = vim.json.encode(message)
  end
end

--- Whether the process runs.
function Client:alive()
  return self.exit_code == nil and self.handle ~= nil
end

--- Sends a request; `callback(err, result)` runs on the main loop, `err`
--- the daemon's error object ({code, message, data}). Returns the id.
function Client:request(method, params, callback)
  callback = callback or function() end
  if not self:alive() then
    vim.schedule(function()
      callback(exited_error(self))
    end)
    return nil
  end
  local id = self:_take_id()
  self.sent[method] = (self.sent[method] or 0) + 1
  self:_send({ jsonrpc = "2.0", id = id, method = method, params = params or vim.empty_dict() }, callback)
  return id
end

--- The same request, waited for (the UI keeps running): returns result, err.
function Client:request_sync(method, params, timeout_ms)
  local done, err, result = false, nil, nil
  self:request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  if not vim.wait(timeout_ms or 10000, function()
    return done
  end, 10) then
    return nil, { code = -32603, message = method .. " got no answer in time" }
  end
  return result, err
end

function Client:notify(method, params)
  if self:alive() then
    self:_send({ jsonrpc = "2.0", method = method, params = params or vim.empty_dict() })
  end
end

--- Calls `handler(params)` for each notification `method`; returns a function
--- that removes it.
function Client:on_notification(method, handler)
  local list = self.handlers[method] or {}
  self.handlers[method] = list
  list[#list + 1] = handler
  return function()
    for i, h in ipairs(list) do
      if h == handler then
        table.remove(list, i)
        return
      end
    end
  end
end

--- Calls `handler(client)` once the process has exited.
function Client:on_exit(handler)
  self.exit_handlers[#self.exit_handlers + 1] = handler
end

function Client:_on_line(line)
  if line == "" then
    return
  end
  local ok, message = pcall(vim.json.decode, line)
  if not ok or type(message) ~= "table" then
    return
  end
  if message.id ~= nil and message.method == nil then
    local callback = self.pending[message.id]
    self.pending[message.id] = nil
    if callback then
      local err = message.error
      if err == vim.NIL then
        err = nil
      end
      local result = message.result
      if result == vim.NIL then
        result = nil
      end
      callback(err, result)
    end
  elseif message.method then
    for _, handler in ipairs(self.handlers[message.method] or {}) do
      handler(message.params)
    end
  end
end

function Client:_on_exit()
  for _, pipe in ipairs({ self.stdin, self.stdout, self.stderr }) do
    if pipe and not pipe:is_closing() then
      pipe:close()
    end
  end
  if self.handle and not self.handle:is_closing() then
    self.handle:close()
  end
  self.exited = true
  local pending = self.pending
  self.pending = {}
  for _, callback in pairs(pending) do
    callback(exited_error(self))
  end
  for _, handler in ipairs(self.exit_handlers) do
    handler(self)
  end
end

--- The last line the process wrote on stderr (why it stopped, usually).
function Client:last_stderr_line()
  for i = #self.stderr_tail, 1, -1 do
    if self.stderr_tail[i]:match("%S") then
      return self.stderr_tail[i]
    end
  end
  return nil
end

--- Ends the session as the protocol says (`shutdown`, then `exit`) and waits
--- for the process to be gone, so that none outlives the editor; a process
--- that does not answer in time is killed.
function Client:stop(timeout_ms)
  timeout_ms = timeout_ms or 3000
  if not self:alive() then
    return
  end
  self.closing = true
  if self.ready then
    self:request_sync("shutdown", nil, timeout_ms)
    self:notify("exit")
  else
    -- No session yet: closing stdin is the daemon's normal end of input.
    self.stdin:close()
  end
  if not vim.wait(timeout_ms, function()
    return self.exited
  end, 10) then
    self.handle:kill("sigkill")
    vim.wait(timeout_ms, function()
      return self.exited
    end, 10)
  end
end

return M
