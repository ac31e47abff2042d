// The time left for a file being hashed, steady enough to read: progress arrives every few tens
// of milliseconds in whole chunks, so the rate between two reports jumps; the estimate follows
// a smoothed rate, and what is shown counts down with the clock and only drifts toward a new
// estimate, so it neither jumps nor climbs back up on noise (only on a real slowdown).
// Pure: no DOM, no timers.

/** No estimate before this many milliseconds of hashing: the first reads are not typical. */
const WARMUP_MS = 1000;
/** Time constant of the smoothed rate, in milliseconds. */
const RATE_TAU_MS = 2000;
/** Time constant with which the shown time follows the estimate, in milliseconds. */
const FOLLOW_TAU_MS = 1000;

/** The shown time goes up only for an estimate above RISE times it plus RISE_MS. */
const RISE = 1.1;
const RISE_MS = 1000;

const ease = (dt, tau) => 1 - Math.exp(-dt / tau);

export class TimeLeft {
  constructor() {
    /** bytes per millisecond, smoothed; null before the first report */
    this.rate = null;
    /** the last report: { done, ms } */
    this.last = null;
    /** the time left shown, in milliseconds; null while it is too early */
    this.shown = null;
  }

  /**
   * Takes a progress report (`done` of `total` bytes after `ms` milliseconds of hashing).
   * @returns {number | null} the seconds left to show, or null while it is too early to say
   */
  update(done, total, ms) {
    const last = this.last;
    this.last = { done, ms };
    if (!last || ms <= last.ms) return this.seconds();
    const dt = ms - last.ms;
    // The average so far for the first second (one report is only a chunk or two), then the
    // recent rate, smoothed.
    this.rate = ms < WARMUP_MS ? done / ms : this.rate + ease(dt, RATE_TAU_MS) * ((done - last.done) / dt - this.rate);
    if (ms < WARMUP_MS || !(this.rate > 0)) return this.seconds();
    const estimate = (total - done) / this.rate;
    if (this.shown === null) {
      this.shown = estimate;
    } else {
      const countdown = Math.max(0, this.shown - dt);
      const follow = countdown + ease(dt, FOLLOW_TAU_MS) * (estimate - countdown);
      // Noise may only slow the countdown; a real slowdown (the estimate well above) raises it.
      const slower = estimate > RISE * this.shown + RISE_MS;
      this.shown = slower ? follow : Math.min(this.shown, follow);
    }
    return this.seconds();
  }

  seconds() {
    return this.shown === null ? null : this.shown / 1000;
  }
}
