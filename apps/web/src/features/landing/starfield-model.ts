export const MIN_PARTICLES = 200;
export const MAX_PARTICLES = 2500;

/** One particle per ~900 square pixels of window, within the spec's 200 to 2500. */
export function particleCount(width: number, height: number): number {
  const wanted = Math.round((Math.max(0, width) * Math.max(0, height)) / 900);
  return Math.min(MAX_PARTICLES, Math.max(MIN_PARTICLES, wanted));
}

export interface Star {
  x: number;
  y: number;
  /** 0.2 (far) to 1 (near): size, brightness and speed grow with it. */
  depth: number;
  twinklePhase: number;
}

export function createStars(count: number, width: number, height: number, random: () => number = Math.random): Star[] {
  return Array.from({ length: count }, () => ({
    x: random() * width,
    y: random() * height,
    depth: 0.2 + random() * 0.8,
    twinklePhase: random() * Math.PI * 2,
  }));
}

/** Moves every star down by its depth-scaled speed, wrapping to the top. `elapsed` is in milliseconds. */
export function advanceStars(stars: Star[], elapsed: number, height: number): void {
  const pixelsPerMs = 0.02;
  for (const star of stars) {
    star.y += star.depth * pixelsPerMs * elapsed;
    if (star.y > height) star.y %= height;
  }
}

/** Brightness steps a frame is drawn with: one fill per step instead of one state change per star. */
export const BRIGHTNESS_LEVELS = 12;

/** The brightness step (0 to BRIGHTNESS_LEVELS - 1) of an opacity between 0 and 1. */
export function brightnessLevel(alpha: number): number {
  return Math.min(BRIGHTNESS_LEVELS - 1, Math.max(0, Math.floor(alpha * BRIGHTNESS_LEVELS)));
}
