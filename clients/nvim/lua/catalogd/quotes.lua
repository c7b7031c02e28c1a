-- :Catalogd quotes: a random quote in a floating window; r fetches another,
-- never a second while one is under way.
local config = require("catalogd.config")

local M = {}

local ns = vim.api.nvim_create_namespace("catalogd_quote")

-- The window, its buffer, the quote shown and whether a fetch runs.
local state = { win = nil, buf = nil, quote = nil, loading = false, error = nil }

--- What the quote window holds (for tests and statuslines).
function M.state()
  return { loading = state.loading, quote = state.quote, win = state.win, buf = state.buf }
end

-- `text` cut into lines of at most `width` display cells, at spaces.
local function wrap(text, width)
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    if line ~= "" and vim.fn.strdisplaywidth(line .. " " .. word) > width then
      lines[#lines + 1] = line
      line = word
    else
      line = line == "" and word or (line .. " " .. word)
    end
  end
  if line ~= "" then
    lines[#lines + 1] = line
  end
  return lines
end

local function content()
  local width = math.max(20, math.min(64, vim.o.columns - 8))
  local lines, highlights = {}, {}
  local function add(text, group)
    lines[#lines + 1] = text
    if group then
      highlights[#highlights + 1] = { group, #lines - 1 }
    end
  end
  if state.error then
    for _, l in ipairs(wrap(state.error, width)) do
      add(l, "ErrorMsg")
    end
  elseif state.quote then
    for _, l in ipairs(wrap(state.quote.content, width)) do
      add(l, "CatalogdQuote")
    end
    add("")
    add("— " .. state.quote.author, "CatalogdAuthor")
  else
    add("Loading…", "CatalogdHint")
  end
  add("")
  add(state.loading and "Loading another…" or "r another · q close", "CatalogdHint")
  local w = 0
  for _, l in ipairs(lines) do
    w = math.max(w, vim.fn.strdisplaywidth(l))
  end
  return lines, highlights, w
end

local function render()
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then
    return
  end
  local lines, highlights, w = content()
  vim.bo[state.buf].modifiable = true
  vim.api.nvim_buf_set_lines(state.buf, 0, -1, false, lines)
  vim.bo[state.buf].modifiable = false
  vim.api.nvim_buf_clear_namespace(state.buf, ns, 0, -1)
  for _, h in ipairs(highlights) do
    require("catalogd.highlight").add(state.buf, ns, h[1], h[2], 0, -1, lines[h[2] + 1])
  end
  if state.win and vim.api.nvim_win_is_valid(state.win) then
    local height = #lines
    vim.api.nvim_win_set_config(state.win, {
      relative = "editor",
      width = w + 2,
      height = height,
      row = math.max(0, math.floor((vim.o.lines - height) / 2) - 1),
      col = math.max(0, math.floor((vim.o.columns - w - 2) / 2)),
    })
  end
end

--- Fetches another quote into the window; nothing while one is under way.
--- Returns true when it asked.
function M.another()
  if state.loading then
    return false
  end
  state.loading = true
  local asked = require("catalogd").request("quotes/random", nil, function(err, quote)
    state.loading = false
    if err then
      state.error = err.message
    else
      state.error, state.quote = nil, quote
    end
    render()
  end)
  if not asked then
    state.loading = false
    return false
  end
  render()
  return true
end

function M.close()
  if state.win and vim.api.nvim_win_is_valid(state.win) then
    vim.api.nvim_win_close(state.win, true)
  end
  state.win = nil
end

local function make_buffer()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].modifiable = false
  local function map(lhs, fn, desc)
    vim.keymap.set("n", lhs, fn, { buffer = buf, nowait = true, silent = true, desc = "catalogd: " .. desc })
  end
  map("r", M.another, "another quote")
  map("q", M.close, "close")
  map("<Esc>", M.close, "close")
  vim.api.nvim_create_autocmd("BufWipeout", {
    buffer = buf,
    callback = function()
      state.buf, state.win = nil, nil
    end,
  })
  vim.bo[buf].filetype = "catalogd_quote"
  return buf
end

--- :Catalogd quotes: opens (or focuses) the window and fetches a quote.
function M.open()
  if not require("catalogd").ensure() then
    return
  end
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then
    state.buf = make_buffer()
    state.quote, state.error = nil, nil
  end
  if not (state.win and vim.api.nvim_win_is_valid(state.win)) then
    state.win = vim.api.nvim_open_win(state.buf, true, {
      relative = "editor",
      width = 30,
      height = 3,
      row = 1,
      col = 1,
      style = "minimal",
      border = config.options.border,
    })
    vim.wo[state.win].wrap = true
  else
    vim.api.nvim_set_current_win(state.win)
  end
  render()
  M.another()
end

return M
