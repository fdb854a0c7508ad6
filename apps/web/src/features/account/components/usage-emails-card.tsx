import { PreferenceSwitchCard } from './preference-switch-card.tsx';

/** The usage e-mails at 80 % and 100 % of residential data: on unless turned off here. */
export function UsageEmailsCard() {
  return (
    <PreferenceSwitchCard
      title="E-mails"
      label="Residential data usage"
      description="An e-mail when 80 % and when all of your residential data is used, with a link to buy more."
      preference="usageEmails"
    />
  );
}
