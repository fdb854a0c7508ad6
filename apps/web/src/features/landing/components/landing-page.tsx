import { MAIN_CONTENT_ID, SkipLink } from '../../../components/skip-link.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { Hero } from './hero.tsx';
import classes from './landing.module.css';
import { LandingFooter } from './landing-footer.tsx';
import { LandingNav } from './landing-nav.tsx';
import { PricingSection } from './pricing-section.tsx';
import { ProductsSection } from './products-section.tsx';
import { Starfield } from './starfield.tsx';
import { SupportedSites } from './supported-sites.tsx';
import { WhyChooseUs } from './why-choose-us.tsx';

export function LandingPage() {
  usePageTitle();

  return (
    <div className={classes.page}>
      <SkipLink />
      <Starfield />
      <LandingNav />
      <main id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Hero />
        <SupportedSites />
        <WhyChooseUs />
        <ProductsSection />
        <PricingSection />
      </main>
      <LandingFooter />
    </div>
  );
}
