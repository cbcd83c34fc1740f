/**
 * Guard's mark: a shield with a pulse line. Inline SVG coloured by the design tokens, so it follows
 * light and dark and needs no image request (identity's pages allow no foreign resource at all).
 */
export const LOGO_SVG =
  '<svg class="logo" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">' +
  '<path d="M16 2 28 6.5V15c0 7.4-5.1 13.2-12 15-6.9-1.8-12-7.6-12-15V6.5Z" fill="var(--accent)"/>' +
  '<path d="M8 17h4.5l2-5 3 9 2-4.5H24" fill="none" stroke="var(--accent-text)" stroke-width="2.2" ' +
  'stroke-linecap="round" stroke-linejoin="round"/></svg>'

export const PRODUCT_NAME = 'Guard'
