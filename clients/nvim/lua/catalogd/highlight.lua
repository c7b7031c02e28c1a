-- The highlight groups of the plug-in, each a default link that a user's
-- `:highlight` or colour scheme overrides (see :help catalogd-highlights).
local M = {}

M.groups = {
  CatalogdTitle = "Title", -- a detail buffer's or the quote window's heading
  CatalogdId = "Comment", -- an item's id
  CatalogdPrice = "Number", -- a product's price
  CatalogdSecondary = "Comment", -- the English name, a photo's size, a place's address
  CatalogdDistance = "Number", -- a place's distance
  CatalogdFooter = "Comment", -- a list's footer while it has more to load
  CatalogdFooterLoading = "MoreMsg", -- the footer while a page loads
  CatalogdFooterFailed = "ErrorMsg", -- the footer after a failed load
  CatalogdFooterEnd = "NonText", -- the footer once the list is complete
  CatalogdQuote = "Normal", -- a quote's text
  CatalogdAuthor = "Identifier", -- a quote's author
  CatalogdHint = "Comment", -- the keys shown in the quote window
  CatalogdField = "Identifier", -- a field name in a detail or form buffer
  CatalogdComment = "Comment", -- the explanation at the top of a form
}

local defined = false

--- Highlights bytes `first`..`last` (exclusive; -1: to the end of the line)
--- of line `row` (0-based) with `group`, as an extmark (nvim_buf_add_highlight
--- is deprecated in newer releases; extmarks work from 0.7 on).
function M.add(buf, ns, group, row, first, last, line)
  if last == -1 then
    line = line or vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ""
    last = #line
  end
  if last <= first then
    return
  end
  vim.api.nvim_buf_set_extmark(buf, ns, row, first, { end_col = last, hl_group = group })
end

function M.define()
  for group, link in pairs(M.groups) do
    vim.cmd(("highlight default link %s %s"):format(group, link))
  end
  if not defined then
    defined = true
    -- A colour scheme clears every group: link them again after it.
    vim.api.nvim_create_autocmd("ColorScheme", {
      group = vim.api.nvim_create_augroup("catalogd_highlight", { clear = true }),
      desc = "catalogd: default highlight links",
      callback = M.define,
    })
  end
end

return M
