/**
 * Whether a request's path is already in the form a URL parser gives it: no `.` or `..` segments (`%2e` included), no
 * backslash, fragment or character that must be percent-encoded. The rules of the shop see the raw path while a
 * library handed a parsed URL (better-auth) serves the normalised one; refusing the difference keeps them one path.
 * Browsers send every path in this form.
 */
export function pathIsPlain(url: string): boolean {
  // A fragment anywhere (in the query too) is dropped by a parser while a router reads on past it.
  if (url.includes('#')) return false;
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  return path.startsWith('/') && URL.parse(path, 'http://shop.invalid')?.pathname === path;
}

export const unplainPathMessage =
  'This address is not in its plain form (it has "." or ".." segments, a backslash or characters that must be percent-encoded). Send the address as a browser would.';
