-- catalogd for Neovim: the editor's one daemon, started on first use with the
-- user's options and stopped (shutdown, exit) when Neovim exits.
local config = require("catalogd.config")
local rpc = require("catalogd.rpc")

local M = {}

M.version = "0.1.0"

local current = nil -- the running client, or nil
local group = nil

--- Sets the options (see :help catalogd-setup). They apply to the next
--- daemon started: one already running keeps its own.
function M.setup(opts)
  config.set(opts)
  require("catalogd.highlight").define()
end

--- Shows `msg` as Neovim shows messages of that level (vim.notify).
function M.notify(msg, level)
  vim.notify("catalogd: " .. msg, level or vim.log.levels.INFO, { title = "catalogd" })
end

--- Shows a daemon's error object (or any message) as an error.
function M.notify_error(err)
  local msg = type(err) == "table" and (err.message or vim.inspect(err)) or tostring(err)
  M.notify(msg, vim.log.levels.ERROR)
end

--- The running client, or nil (none started yet, or it exited).
function M.client()
  if current and current:alive() then
    return current
  end
  return nil
end

local function on_exit(client)
  if current == client then
    current = nil
  end
  if client.closing then
    return
  end
  -- Reported once, here; the next command starts a new daemon.
  local why = client.exit_signal and client.exit_signal ~= 0 and ("signal " .. client.exit_signal)
    or ("status " .. tostring(client.exit_code))
  local last = client:last_stderr_line()
  M.notify(
    ("the daemon exited (%s)%s; the next command starts it again"):format(why, last and (": " .. last) or ""),
    vim.log.levels.ERROR
  )
end

--- The running client, started first when there is none. Returns nil and
--- shows why when the daemon cannot start.
function M.ensure()
  local client = M.client()
  if client then
    return client
  end
  local cmd = config.daemon_cmd()
  local init = { clientInfo = { name = "catalogd.nvim", version = M.version } }
  if config.options.locale then
    init.locale = config.options.locale
  end
  local started, err = rpc.start(cmd, { env = config.daemon_env(), initialize = init })
  if not started then
    M.notify(
      ("cannot start %s (%s): set cmd in require('catalogd').setup{} or $CATALOGD_BIN"):format(cmd[1], err),
      vim.log.levels.ERROR
    )
    return nil
  end
  current = started
  started:on_exit(on_exit)
  require("catalogd.highlight").define()
  if not group then
    group = vim.api.nvim_create_augroup("catalogd", { clear = true })
    vim.api.nvim_create_autocmd("VimLeavePre", {
      group = group,
      desc = "catalogd: shut the daemon down",
      callback = function()
        M.stop()
      end,
    })
  end
  return started
end

--- Stops the daemon, if one runs (shutdown, exit; waits for it to be gone).
function M.stop()
  local client = current
  current = nil
  if client then
    client:stop()
  end
end

--- A request to the daemon (started if needed); `callback(err, result)`.
--- Returns false when no daemon could be started (the user was told).
function M.request(method, params, callback)
  local client = M.ensure()
  if not client then
    return false
  end
  client:request(method, params, callback)
  return true
end

--- The same request, waited for: returns result, err.
function M.request_sync(method, params, timeout_ms)
  local client = M.ensure()
  if not client then
    return nil, { message = "catalogd is not running" }
  end
  return client:request_sync(method, params, timeout_ms or config.options.timeout_ms)
end

return M
