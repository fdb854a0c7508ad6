// @vitest-environment happy-dom
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WhenNearView } from './when-near-view.tsx';

/** A stand-in IntersectionObserver the test moves by hand: what it watches, with which margin, and a way to report. */
class FakeObserver {
  static all: FakeObserver[] = [];
  watched: Element[] = [];
  readonly report: IntersectionObserverCallback;
  readonly options?: IntersectionObserverInit;
  constructor(report: IntersectionObserverCallback, options?: IntersectionObserverInit) {
    this.report = report;
    this.options = options;
    FakeObserver.all.push(this);
  }
  observe(element: Element) {
    this.watched.push(element);
  }
  disconnect() {
    this.watched = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  tell(isIntersecting: boolean) {
    const entries = this.watched.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
    act(() => this.report(entries, this as unknown as IntersectionObserver));
  }
}

const live = () => FakeObserver.all.filter((observer) => observer.watched.length > 0);

describe('WhenNearView', () => {
  beforeEach(() => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the placeholder until its place nears the viewport, then the children for good', () => {
    render(
      <WhenNearView placeholder={<p>room held</p>} margin="250px">
        <p>the chart</p>
      </WhenNearView>,
    );
    expect(screen.getByText('room held')).toBeTruthy();
    expect(screen.queryByText('the chart')).toBeNull();
    const [observer] = live();
    expect(observer?.options?.rootMargin).toBe('250px');

    // Still far below the fold: nothing changes.
    observer?.tell(false);
    expect(screen.queryByText('the chart')).toBeNull();

    observer?.tell(true);
    expect(screen.getByText('the chart')).toBeTruthy();
    expect(screen.queryByText('room held')).toBeNull();
    // Scrolled away again, the children stay and nothing watches any more.
    expect(live()).toEqual([]);
  });
});
