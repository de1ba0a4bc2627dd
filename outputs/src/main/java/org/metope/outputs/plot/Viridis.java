package org.metope.outputs.plot;

/**
 * The viridis colour map (perceptually uniform, lightness rising from dark purple to yellow,
 * readable in grey scale and by colour-blind viewers), computed by linear interpolation between
 * eleven samples of matplotlib's map at 0, 0.1, ..., 1. Lightness rises monotonically between
 * every pair of samples, so it does along the whole map.
 */
public final class Viridis {
  /** Red, green, blue in [0, 1] at t = 0, 0.1, ..., 1. */
  private static final double[][] SAMPLES = {
    {0.267004, 0.004874, 0.329415},
    {0.282623, 0.140926, 0.457517},
    {0.253935, 0.265254, 0.529983},
    {0.206756, 0.371758, 0.553117},
    {0.163625, 0.471133, 0.558148},
    {0.127568, 0.566949, 0.550556},
    {0.134692, 0.658636, 0.517649},
    {0.266941, 0.748751, 0.440573},
    {0.477504, 0.821444, 0.318195},
    {0.741388, 0.873449, 0.149561},
    {0.993248, 0.906157, 0.143936},
  };

  private Viridis() {}

  /** The colour at {@code t} (clamped to [0, 1]) as {@code 0xRRGGBB}. */
  public static int rgb(double t) {
    double x = Math.max(0.0, Math.min(1.0, t)) * (SAMPLES.length - 1);
    int lower = Math.min(SAMPLES.length - 2, (int) Math.floor(x));
    double f = x - lower;
    int rgb = 0;
    for (int channel = 0; channel < 3; channel++) {
      double a = SAMPLES[lower][channel];
      double b = SAMPLES[lower + 1][channel];
      int v = (int) Math.round(255.0 * (a + f * (b - a)));
      rgb = (rgb << 8) | v;
    }
    return rgb;
  }
}
