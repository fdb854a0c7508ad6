import { site } from '../../../config/site.ts';
import type { LegalSection } from '../legal-document.ts';
import { LegalPage } from './legal-page.tsx';

/** The sections for a brand name (the operator's, known at render time: the server renders this page too). */
const sectionsFor = (brand: string): LegalSection[] => [
  {
    heading: 'Agreement',
    paragraphs: [
      `These Terms of Service govern your use of the ${brand} website, dashboard and proxy services. By creating an account or buying a service you accept them. If you do not agree, do not use the services.`,
    ],
  },
  {
    heading: 'The services',
    paragraphs: ['We sell three kinds of proxy service:'],
    points: [
      'Elite ISP Proxies: static dedicated IPs, one dedicated IP per proxy, billed per IP per month.',
      'PK1 ISP Proxies: retailer-optimised static IPs, one dedicated IP per proxy, billed per IP per month.',
      'Residential Proxies: rotating residential IPs billed per GB of data. Purchased data does not expire.',
    ],
  },
  {
    heading: 'Your account',
    paragraphs: [
      'You must give a valid e-mail address and keep your password and proxy credentials secret. You are responsible for everything done with your account and your proxies. Tell us at once if you believe your account has been used without your permission.',
    ],
  },
  {
    heading: 'Orders, billing and automatic renewal',
    paragraphs: [
      'Prices are shown in US dollars before you pay. Payment is taken by card through our payment provider; we never see or store your full card number.',
      'ISP and PK1 orders are subscriptions that renew automatically at the end of each monthly billing cycle, charging the card on file, unless you cancel them. If a renewal payment fails, we will tell you, and the proxies may stop working if payment is not made within a short grace period.',
      'Orders are usually delivered at once. When stock is short, an order is shown as processing and is delivered as soon as stock arrives, normally within 24 hours.',
    ],
  },
  {
    heading: 'Cancellation',
    paragraphs: [
      'You can cancel an ISP or PK1 order at any time from your dashboard. A cancelled order is not renewed and terminates at the end of its current billing cycle; you keep access until then. Once an order has ended, its IPs return to our pool and cannot be recovered.',
    ],
  },
  {
    heading: 'All sales are final',
    paragraphs: [
      'All sales are final. We do not give refunds, in full or in part, for any order, including unused time, unused data, or orders you cancel before the end of a billing cycle, except where the law requires otherwise.',
    ],
  },
  {
    heading: 'Acceptable use',
    paragraphs: ['You may not use our services, directly or through others, to:'],
    points: [
      'break any law or regulation, or infringe the rights of others;',
      'send spam, phishing, malware, or attack, probe or overload any system or network;',
      'commit fraud, including payment, account or identity fraud;',
      'access, store or distribute material that exploits minors or promotes violence or hatred;',
      'resell or share your proxies, unless we have agreed to it in writing.',
    ],
  },
  {
    heading: 'Enforcement',
    paragraphs: [
      'We may suspend or end services that break these terms, without refund, and we may cooperate with lawful requests from authorities. Where we can, we will warn you first.',
    ],
  },
  {
    heading: 'Service availability',
    paragraphs: [
      'We aim for 99.9% uptime. This is a goal, not a guarantee: networks, upstream providers and target websites are outside our full control, and maintenance may cause short interruptions. Latency and success rates vary by location and target site.',
    ],
  },
  {
    heading: 'Support',
    paragraphs: [
      'Support is provided through our chat community, linked at the foot of every page, where you can open a ticket 24 hours a day, 7 days a week.',
    ],
  },
  {
    heading: 'Disclaimer and limitation of liability',
    paragraphs: [
      'The services are provided "as is". To the extent the law allows, we make no promise that they will meet your needs or that any particular website will accept them, and our total liability for any claim is limited to the amount you paid us in the month before the claim arose. We are not liable for indirect or consequential losses, such as lost profits or missed purchases.',
    ],
  },
  {
    heading: 'Changes to these terms',
    paragraphs: [
      'We may update these terms. The date at the top of this page shows the latest version; if a change is significant we will tell you by e-mail or in the dashboard. Using the services after a change means you accept it.',
    ],
  },
];

export function TermsPage() {
  const brand = site.brandName;
  return (
    <LegalPage
      title="Terms of Service"
      intro={`Please read these terms carefully. They explain how ${brand} orders renew, how cancellation works, that all sales are final, and the rules for using our proxies.`}
      sections={sectionsFor(brand)}
    />
  );
}
