/** Same-origin return addresses are followed inside the app; anything else is left as a full navigation. */
export function inAppPath(url: string): string | undefined {
  try {
    const target = new URL(url, window.location.href);
    return target.origin === window.location.origin ? `${target.pathname}${target.search}` : undefined;
  } catch {
    return undefined;
  }
}
