import classes from './landing.module.css';

/** Fourteen retail and ticketing brands, written as text wordmarks (no copied logos). */
export const supportedSites = [
  'Nike',
  'Adidas',
  'Foot Locker',
  'Supreme',
  'Shopify',
  'Ticketmaster',
  'StubHub',
  'Walmart',
  'Target',
  'Amazon',
  'Best Buy',
  'Finish Line',
  'JD Sports',
  'AXS',
] as const;

export function SupportedSites() {
  return (
    <section className={classes.marquee} aria-label="Supported websites carousel">
      <ul className={classes.marqueeTrack} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {supportedSites.map((name) => (
          <li key={name} className={classes.wordmark}>
            {name}
          </li>
        ))}
        {/* The second copy makes the loop seamless; it is hidden from assistive technology. */}
        {supportedSites.map((name) => (
          <li key={`copy-${name}`} className={classes.wordmark} aria-hidden="true">
            {name}
          </li>
        ))}
      </ul>
    </section>
  );
}
