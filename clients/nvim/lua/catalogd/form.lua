-- A product form: a buffer of `name: value` lines that :w sends as
-- products/create or products/update. The values go as typed (a price that is
-- not a whole number too), so that the daemon, which checks every param,
-- says what is wrong; its message is shown as an error and the buffer stays
-- modified.
local M = {}

M.fields = { "nameKo", "nameEn", "price", "supplierId" }

-- Fields that an empty value clears (null) or leaves out.
local optional = { nameEn = true, supplierId = true }

-- The open forms by buffer number: { product = the product edited or nil }.
M.forms = {}

local function isnil(v)
  return v == nil or v == vim.NIL
end

-- A field's value as the form shows it.
local function shown(product, field)
  if not product then
    return ""
  end
  local v
  if field == "supplierId" then
    v = not isnil(product.supplier) and product.supplier.id or nil
  else
    v = product[field]
  end
  return isnil(v) and "" or tostring(v)
end

local function form_lines(product)
  local lines
  if product then
    lines = {
      ("# Product %s, version %s: :w saves the changes, :q leaves."):format(product.id, product.version),
    }
  else
    lines = { "# New product: fill in the values, :w creates it, :q leaves." }
  end
  lines[#lines + 1] = "# nameEn and supplierId may stay empty; the price is in won."
  for _, field in ipairs(M.fields) do
    lines[#lines + 1] = field .. ": " .. shown(product, field)
  end
  return lines
end

local function buffer_name(product)
  return require("catalogd.names").unique(
    product and ("catalogd://products/" .. product.id .. "/edit") or "catalogd://products/new"
  )
end

local function fill(buf, product)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, form_lines(product))
  vim.bo[buf].modified = false
end

local function open(product)
  local buf = vim.api.nvim_create_buf(false, false)
  M.forms[buf] = { product = product }
  vim.bo[buf].buftype = "acwrite"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_name(buf, buffer_name(product))
  fill(buf, product)
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    buffer = buf,
    desc = "catalogd: send the product",
    callback = function()
      M.write(buf)
    end,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    buffer = buf,
    callback = function()
      M.forms[buf] = nil
    end,
  })
  vim.cmd("belowright " .. (#M.fields + 2) .. "split")
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_buf_call(buf, function()
    vim.cmd([[syntax match CatalogdComment /^#.*/]])
    vim.cmd([[syntax match CatalogdField /^\s*\w\+\ze\s*:/]])
  end)
  vim.bo[buf].filetype = "catalogd_form"
  -- The cursor at the end of the first field.
  vim.api.nvim_win_set_cursor(0, { 3, #vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1] })
  return buf
end

--- A form for a new product.
function M.create()
  if not require("catalogd").ensure() then
    return nil
  end
  return open(nil)
end

--- A form for the product `id` (read first, for its values and version).
function M.edit(id)
  local catalogd = require("catalogd")
  catalogd.request("products/get", { id = id }, function(err, product)
    if err then
      catalogd.notify_error(err)
      return
    end
    open(product)
  end)
end

-- A typed value as the daemon takes it: a price that reads as a whole number
-- goes as a number, anything else as typed.
local function value_of(field, text)
  if field == "price" and text:match("^%-?%d+$") then
    return tonumber(text)
  end
  return text
end

--- The params of the form's lines, or nil and what is wrong with a line.
function M.params(lines, product)
  local values, order = {}, {}
  for n, line in ipairs(lines) do
    if line:match("%S") and not line:match("^%s*#") then
      local key, text = line:match("^%s*([%w_]+)%s*:%s?(.-)%s*$")
      if not key then
        return nil, ("line %d: write a field as `name: value`"):format(n)
      end
      if values[key] == nil then
        order[#order + 1] = key
      end
      values[key] = text
    end
  end
  local params = {}
  if product then
    params.id = product.id
    params.expectedVersion = product.version
  end
  local changed = false
  for _, key in ipairs(order) do
    local text = values[key]
    if product then
      -- Only what changed; an emptied optional field is cleared.
      if text ~= shown(product, key) then
        changed = true
        if text == "" and optional[key] then
          params[key] = vim.NIL
        else
          params[key] = value_of(key, text)
        end
      end
    elseif not (text == "" and optional[key]) then
      params[key] = value_of(key, text)
    end
  end
  if product and not changed then
    return params, nil, true
  end
  return params
end

--- :w of a form: sends it and waits for the answer (so that :wq and :x
--- leave only a saved form).
function M.write(buf)
  local catalogd = require("catalogd")
  local form = M.forms[buf]
  if not form then
    return
  end
  local params, problem, unchanged = M.params(vim.api.nvim_buf_get_lines(buf, 0, -1, false), form.product)
  if not params then
    catalogd.notify(problem, vim.log.levels.ERROR)
    return
  end
  if unchanged then
    vim.bo[buf].modified = false
    catalogd.notify("nothing changed")
    return
  end
  local method = form.product and "products/update" or "products/create"
  local product, err = catalogd.request_sync(method, params)
  if err then
    catalogd.notify_error(err)
    return
  end
  local created = form.product == nil
  form.product = product
  fill(buf, product)
  pcall(vim.api.nvim_buf_set_name, buf, buffer_name(product))
  catalogd.notify(("product %s %s"):format(product.id, created and "created" or "saved"))
end

return M
