-- The user's options (require("catalogd").setup{…}) over the defaults, and the
-- command line that starts the daemon from them.
local M = {}

M.defaults = {
  -- The daemon and its arguments, a list as vim.lsp.start takes it; nil:
  -- $CATALOGD_BIN, else `catalogd` on PATH.
  cmd = nil,
  -- Extra environment of the daemon (added to Neovim's).
  cmd_env = nil,
  -- --data-dir; nil: the daemon's default ($XDG_DATA_HOME/catalogd).
  data_dir = nil,
  -- --remote ("auto" or a socket path): share one daemon between editors.
  remote = nil,
  -- The language of the daemon's error messages ("ko" or "en"); nil: the
  -- daemon's environment decides.
  locale = nil,
  -- Items per page of the lists; nil: each source's default.
  page_size = nil,
  -- The centre of `:Catalogd places {category}` without x and y (Seoul City Hall).
  places_center = { 126.9779692, 37.566535 },
  -- How many lines from the end of a list the next page starts loading.
  load_margin = 5,
  -- The quote window's border (see 'nvim_open_win()').
  border = "rounded",
  -- How long a form's :w waits for the daemon, in milliseconds.
  timeout_ms = 10000,
}

M.options = vim.deepcopy(M.defaults)

-- Each option's type. (vim.validate's table form, the one Neovim 0.7 has,
-- warns that it is deprecated from 0.11 on: checked here instead.)
local types = {
  cmd = "table",
  cmd_env = "table",
  data_dir = "string",
  remote = "string",
  locale = "string",
  page_size = "number",
  places_center = "table",
  load_margin = "number",
  border = { "string", "table" },
  timeout_ms = "number",
}

function M.set(opts)
  opts = opts or {}
  if type(opts) ~= "table" then
    error("catalogd: setup takes a table of options", 2)
  end
  for name, value in pairs(opts) do
    local want = types[name]
    if not want then
      error(("catalogd: unknown option %s"):format(tostring(name)), 2)
    end
    want = type(want) == "table" and want or { want }
    if not vim.tbl_contains(want, type(value)) then
      error(("catalogd: option %s: expected %s, got %s"):format(name, table.concat(want, " or "), type(value)), 2)
    end
  end
  if opts.cmd and #opts.cmd == 0 then
    error("catalogd: cmd must name the program, as in { '/path/to/catalogd' }")
  end
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts)
  -- A list is taken whole, never merged item by item with the default.
  M.options.cmd = opts.cmd and vim.deepcopy(opts.cmd) or nil
  M.options.places_center = opts.places_center or M.defaults.places_center
end

--- The program and arguments as configured, without those the plug-in adds.
function M.base_cmd()
  if M.options.cmd then
    return vim.deepcopy(M.options.cmd)
  end
  local bin = os.getenv("CATALOGD_BIN")
  if bin == nil or bin == "" then
    bin = "catalogd"
  end
  return { bin }
end

--- The options the plug-in adds to any command of the daemon.
function M.daemon_options()
  local args = {}
  if M.options.data_dir then
    vim.list_extend(args, { "--data-dir", vim.fn.expand(M.options.data_dir) })
  end
  if M.options.remote then
    vim.list_extend(args, { "--remote", M.options.remote })
  end
  return args
end

--- The full command line of the editor's daemon.
function M.daemon_cmd()
  local cmd = M.base_cmd()
  vim.list_extend(cmd, { "--framing", "ndjson" })
  vim.list_extend(cmd, M.daemon_options())
  return cmd
end

--- The daemon's environment: Neovim's, plus cmd_env (nil when there is none,
--- so that libuv passes Neovim's on).
function M.daemon_env()
  if not M.options.cmd_env then
    return nil
  end
  local env = vim.fn.environ()
  for k, v in pairs(M.options.cmd_env) do
    env[k] = tostring(v)
  end
  local list = {}
  for k, v in pairs(env) do
    list[#list + 1] = k .. "=" .. v
  end
  return list
end

return M
