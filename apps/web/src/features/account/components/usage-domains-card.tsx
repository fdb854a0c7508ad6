import { PreferenceSwitchCard } from './preference-switch-card.tsx';

/** Whether the gateway records the domains the customer's traffic reaches in their usage statistics: on unless off here. */
export function UsageDomainsCard() {
  return (
    <PreferenceSwitchCard
      title="Usage statistics"
      label="Record the domains I reach"
      description="Residential data used is counted by the site's domain, such as example.com: never a page, a full address or a query. Off: new use is counted without domains."
      preference="recordDomains"
    />
  );
}
