import { describe, expect, it } from 'vitest';
import {
  advanceStars,
  BRIGHTNESS_LEVELS,
  brightnessLevel,
  createStars,
  MAX_PARTICLES,
  MIN_PARTICLES,
  particleCount,
} from './starfield-model.ts';

describe('starfield', () => {
  it('keeps the particle count between 200 and 2500', () => {
    expect(particleCount(0, 0)).toBe(MIN_PARTICLES);
    expect(particleCount(375, 812)).toBeGreaterThanOrEqual(MIN_PARTICLES);
    expect(particleCount(7680, 4320)).toBe(MAX_PARTICLES);
    expect(particleCount(1280, 900)).toBe(1280);
  });

  it('wraps stars that leave the bottom back into the window', () => {
    const stars = createStars(50, 100, 100);
    advanceStars(stars, 100_000, 100);
    for (const star of stars) {
      expect(star.y).toBeGreaterThanOrEqual(0);
      expect(star.y).toBeLessThanOrEqual(100);
    }
  });

  it('puts every opacity in one of the brightness steps', () => {
    expect(brightnessLevel(0)).toBe(0);
    expect(brightnessLevel(0.2 * 0.5)).toBe(1);
    expect(brightnessLevel(0.999)).toBe(BRIGHTNESS_LEVELS - 1);
    expect(brightnessLevel(1)).toBe(BRIGHTNESS_LEVELS - 1);
    expect(brightnessLevel(-0.1)).toBe(0);
  });
});
