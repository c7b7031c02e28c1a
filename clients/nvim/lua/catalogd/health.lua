-- :checkhealth catalogd: the binary, its version and the backends it serves.
local M = {}

-- vim.health.start/ok/… since Neovim 0.9 (report_* before, and require("health") on 0.7).
local function reporter()
  local h = vim.health
  if not (h and (h.start or h.report_start)) then
    h = require("health")
  end
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

local function backends_lines(report, status)
  local names = vim.tbl_keys(status.backends or {})
  table.sort(names)
  for _, name in ipairs(names) do
    report.ok(("%s: %s"):format(name, status.backends[name]))
  end
  if status.dataDir and status.dataDir ~= vim.NIL then
    report.info("data dir: " .. status.dataDir)
  end
end

function M.check()
  local report = reporter()
  local config = require("catalogd.config")
  report.start("catalogd")
  if vim.fn.has("nvim-0.7") == 1 then
    report.ok("Neovim " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor))
  else
    report.error("Neovim 0.7 or newer is needed")
  end

  local cmd = config.base_cmd()
  local bin = vim.fn.exepath(cmd[1])
  if bin == "" then
    report.error(("the daemon %s was not found"):format(cmd[1]), {
      "Set cmd in require('catalogd').setup{ cmd = { '/path/to/catalogd' } }",
      "or $CATALOGD_BIN, or put catalogd on PATH.",
    })
    return
  end
  report.ok("binary: " .. bin)
  local version = vim.fn.system({ bin, "--version" })
  if vim.v.shell_error ~= 0 then
    report.error(("%s --version failed: %s"):format(bin, vim.trim(version)))
    return
  end
  report.ok("version: " .. vim.trim(version))

  report.start("catalogd: backends")
  local client = require("catalogd").client()
  if client then
    report.info(("the editor's daemon runs (pid %d)"):format(client.pid))
    local status, err = client:request_sync("daemon/status", nil, 10000)
    if err then
      report.error("daemon/status failed: " .. (err.message or vim.inspect(err)))
    else
      backends_lines(report, status)
    end
    return
  end
  -- No daemon yet: ask one run of the same configuration (`call` runs the
  -- request in-process and exits).
  local args = { bin, "call", "daemon/status", "{}" }
  for i = 2, #cmd do
    args[#args + 1] = cmd[i]
  end
  vim.list_extend(args, config.daemon_options())
  local out = vim.fn.system(args)
  if vim.v.shell_error ~= 0 then
    report.error("daemon/status failed: " .. vim.trim(out))
    return
  end
  -- stderr (its log lines) comes with stdout: the status is the JSON line.
  for line in out:gmatch("[^\n]+") do
    if line:sub(1, 1) == "{" then
      local ok, status = pcall(vim.json.decode, line)
      if ok then
        report.info("no daemon runs yet: asked `catalogd call daemon/status` with the same options")
        backends_lines(report, status)
        return
      end
    end
  end
  report.warn("daemon/status printed no status: " .. vim.trim(out))
end

return M
