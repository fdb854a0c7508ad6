import { useEffect, useRef } from 'react';
import { advanceStars, createStars, particleCount, type Star } from '../starfield-model.ts';
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

    const draw = (time: number) => {
      context.clearRect(0, 0, width, height);
      for (const star of stars) {
        const twinkle = reducedMotion.matches ? 1 : 0.75 + 0.25 * Math.sin(time / 600 + star.twinklePhase);
        context.globalAlpha = star.depth * twinkle;
        context.fillStyle = '#ffffff';
        const size = star.depth * 1.6;
        context.fillRect(star.x, star.y, size, size);
      }
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

    resize();
    start();
    document.addEventListener('visibilitychange', onVisibility);
    reducedMotion.addEventListener('change', onMotionChange);
    window.addEventListener('resize', onResize);
    return () => {
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
