import { useEffect } from 'react';
import { site } from '../config/site.ts';

export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | ${site.brandName}`;
  }, [title]);
}
