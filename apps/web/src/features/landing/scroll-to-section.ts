/** Section anchors of the landing page (spec: anchors products and pricing). */
export const sectionIds = { products: 'products', pricing: 'pricing' } as const;

export function scrollToSection(id: string): void {
  const element = document.getElementById(id);
  if (!element) return;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  element.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  window.history.replaceState(null, '', `#${id}`);
}
