import { site } from '../../../config/site.ts';
import type { LegalSection } from '../legal-document.ts';
import { LegalPage } from './legal-page.tsx';

/**
 * The sections for a brand name and whether domains are recorded (the operator's settings, known at render time: the
 * server renders this page too).
 */
const sectionsFor = (brand: string, usageDomains: boolean): LegalSection[] => [
  {
    heading: 'What we collect',
    paragraphs: ['We collect only what we need to sell and run your proxies:'],
    points: [
      'Account data: your e-mail address, a one-way hash of your password (never the password itself), and, if you sign in with a social account, the identifier that provider gives us.',
      'Order data: what you bought, when, its price, its status and your invoices.',
      'Payment data: handled by our card payment provider. We receive a reference to the payment and the last details needed for invoices, never your full card number.',
      usageDomains
        ? 'Usage data: the residential data your account and its proxy users use, for metering and for your usage statistics: bytes and connections by hour, user and targeted country, and by day with the domain of the sites reached (such as example.com, unless you switch domains off on Settings). We do not record the content of your traffic, the pages or addresses you visit, or their queries.'
        : 'Usage data: the residential data your account and its proxy users use, for metering and for your usage statistics: bytes and connections by hour, user and targeted country. We do not record the content of your traffic, the sites, pages or addresses you visit, or their queries.',
      'Technical data: IP address, browser type and request times in our server logs, kept for security and to fix faults.',
    ],
  },
  {
    heading: 'How we use it',
    paragraphs: [
      'We use your data to create and secure your account, deliver and renew your orders, take payment, send the e-mails the service needs (confirmation, password reset, receipts, renewal and payment notices), answer support requests, prevent fraud and abuse, and meet legal duties. We do not sell your data and we do not send marketing e-mail without your consent.',
    ],
  },
  {
    heading: 'Cookies and local storage',
    paragraphs: [
      'We use one essential cookie to keep you signed in, and your browser’s local storage to remember your light or dark colour scheme. We use no advertising or third-party tracking cookies.',
    ],
  },
  {
    heading: 'Who we share it with',
    paragraphs: [
      'We share data only with the providers that run parts of the service for us, each bound to protect it: our card payment provider, our e-mail delivery provider, our hosting provider, and the sign-in provider you choose (Google or Discord) if you use one. We disclose data to authorities only when the law requires it.',
    ],
  },
  {
    heading: 'How long we keep it',
    paragraphs: [
      'We keep account and order data while your account is open and afterwards for as long as tax and accounting law requires. Usage statistics are kept by the hour for 90 days and by the day for 13 months. Server logs are kept for up to 90 days. When you ask us to delete your account, we delete or anonymise what we are not required to keep.',
    ],
  },
  {
    heading: 'Security',
    paragraphs: [
      'Passwords are stored as salted hashes, connections are encrypted with HTTPS, and access to customer data is limited to the staff who need it. No system is perfectly secure; if a breach affects you, we will tell you without undue delay.',
    ],
  },
  {
    heading: 'Your rights',
    paragraphs: [
      'You can ask to see, correct, export or delete your personal data, and object to or restrict its use, depending on the law where you live. Contact us through our chat community and we will answer within 30 days.',
    ],
  },
  {
    heading: 'Children',
    paragraphs: [`${brand} is not for anyone under 18, and we do not knowingly collect data from children.`],
  },
  {
    heading: 'Changes to this policy',
    paragraphs: [
      'We may update this policy. The date at the top shows the latest version; if a change is significant we will tell you by e-mail or in the dashboard.',
    ],
  },
];

export function PrivacyPage() {
  const brand = site.brandName;
  return (
    <LegalPage
      title="Privacy Policy"
      intro={`This policy explains what personal data ${brand} collects when you use our website, dashboard and proxies, why, and the choices you have.`}
      sections={sectionsFor(brand, site.usageDomains)}
    />
  );
}
