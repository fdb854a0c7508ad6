import { useEffect, useRef } from 'react';
import {
  advanceStars,
  BRIGHTNESS_LEVELS,
  brightnessLevel,
  createStars,
  particleCount,
  type Star,
} from '../starfield-model.ts';
import classes from './landing.module.css';

/**
 * The decorative backdrop: stars drifting on black. It pauses while the tab is hidden and stands still under
 * prefers-reduced-motion; it is hidden from assistive technology.
 */
export function Starfield() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;

    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
    let stars: Star[] = [];
    let width = 0;
    let height = 0;
    let frame = 0;
    let last = 0;

    const resize = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      width = window.innerWidth;
      height = window.innerHeight;
      canvas.width = Math.floor(width * ratio);
      canvas.height = Math.floor(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      stars = createStars(particleCount(width, height), width, height);
      draw(0);
    };

    // Stars are grouped by brightness step and each group filled at once: a few draw calls a frame, not thousands.
    const draw = (time: number) => {
      context.clearRect(0, 0, width, height);
      const levels = Array.from({ length: BRIGHTNESS_LEVELS }, () => new Path2D());
      for (const star of stars) {
        const twinkle = reducedMotion.matches ? 1 : 0.75 + 0.25 * Math.sin(time / 600 + star.twinklePhase);
        const size = star.depth * 1.6;
        levels[brightnessLevel(star.depth * twinkle)]?.rect(star.x, star.y, size, size);
      }
      context.fillStyle = '#ffffff';
      levels.forEach((path, level) => {
        context.globalAlpha = (level + 0.5) / BRIGHTNESS_LEVELS;
        context.fill(path);
      });
      context.globalAlpha = 1;
    };

    const tick = (time: number) => {
      const elapsed = last ? Math.min(time - last, 100) : 0;
      last = time;
      advanceStars(stars, elapsed, height);
      draw(time);
      frame = requestAnimationFrame(tick);
    };

    const start = () => {
      if (frame || reducedMotion.matches || document.hidden) return;
      last = 0;
      frame = requestAnimationFrame(tick);
    };
    const stop = () => {
      cancelAnimationFrame(frame);
      frame = 0;
    };
    const onVisibility = () => (document.hidden ? stop() : start());
    const onMotionChange = () => {
      stop();
      draw(0);
      start();
    };
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(resize, 150);
    };

    // The first frame waits for the browser's next paint, so it never lengthens the page's start-up work.
    const first = requestAnimationFrame(() => {
      resize();
      start();
    });
    document.addEventListener('visibilitychange', onVisibility);
    reducedMotion.addEventListener('change', onMotionChange);
    window.addEventListener('resize', onResize);
    return () => {
      cancelAnimationFrame(first);
      stop();
      clearTimeout(resizeTimer);
      document.removeEventListener('visibilitychange', onVisibility);
      reducedMotion.removeEventListener('change', onMotionChange);
      window.removeEventListener('resize', onResize);
    };
  }, []);

  // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a canvas without tabindex cannot take focus; it is pure decoration.
  return <canvas ref={canvasRef} className={classes.starfield} aria-hidden="true" data-testid="starfield" />;
}
