/** The date the spec gives for both policies. */
export const LEGAL_LAST_UPDATED = '2 September 2025';

export interface LegalSection {
  heading: string;
  paragraphs: string[];
  points?: string[];
}
