package org.metope.outputs.plot;

import java.awt.AWTError;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.metope.mesh.DriverError;
import org.metope.mesh.input.InputError;
import org.metope.outputs.AtomicFile;

/**
 * {@code metope plot FILE.phdf [VARIABLE] [--slice xN=VALUE] [-o OUT.png] [--blocks] [--particles
 * SWARM]}: writes a
 * PNG of one component of a field of a 2D output, or of a plane of a 3D one, with the blocks
 * outlined by refinement level ({@link PlotRenderer}); {@code --blocks} draws only the block
 * structure. VARIABLE is a dataset name (component 0), {@code NAME:N} or a component name; the
 * default is the file's first field. A 3D file without {@code --slice} is cut at the middle of
 * x3. The default output is {@code <file stem>.<variable>.png} (or {@code .blocks.png}) in the
 * current directory, written through a temporary file and a rename. {@code --particles SWARM}
 * marks the particles of that swarm in the plane ({@link PlotParticles}).
 *
 * <p>Bad input (no such file, not a {@code .phdf}, unknown variable, a slice outside the domain,
 * a 1D file, a bad option, a swarm the file does not hold) is one line on standard error and
 * exit code 2.
 */
public final class PlotCommand {
  private static final String USAGE = "usage: metope plot FILE.phdf [VARIABLE[:N]]"
      + " [--slice x1|x2|x3=VALUE] [-o OUT.png] [--blocks] [--particles SWARM]";

  private PlotCommand() {}

  /** Entry point used by the {@code ./metope plot} launcher mode. */
  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(run(args, System.out, System.err));
  }

  /** The parsed command line. */
  record Options(Path file, String variable, int sliceAxis, double sliceValue, Path output,
      boolean blocksOnly, String swarm) {}

  /** Runs the command and returns its exit code (0, or 2 for bad input). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Options options;
    try {
      options = parse(args);
    } catch (InputError e) {
      err.println("metope plot: " + e.getMessage());
      return 2;
    }
    try (PhdfFile file = PhdfFile.open(options.file())) {
      PhdfFile.FieldComponent field = options.blocksOnly() && options.variable() == null
          ? null : file.field(options.variable());
      double[][] values = options.blocksOnly() ? null : file.values(field);
      PlotSlice slice = PlotSlice.of(file, options.sliceAxis(), options.sliceValue(), values);
      String name = options.file().getFileName().toString();
      String title = (options.blocksOnly() ? "mesh blocks" : field.label()) + "   (" + name + ")";
      PlotParticles particles = options.swarm() == null ? null
          : PlotParticles.of(file, options.swarm(), slice);
      PlotRenderer.Picture picture = PlotRenderer.render(file, slice, title,
          options.blocksOnly(), particles);
      Path target = options.output() != null ? options.output()
          : Path.of(defaultName(name, options.blocksOnly() ? "blocks" : field.label()));
      AtomicFile.write(target, "picture", temporary -> {
        // Through a stream of our own: ImageIO's own file stream prints the trace of a file it
        // cannot create (-o /proc/self/x.png) before returning null.
        try (OutputStream stream = Files.newOutputStream(temporary)) {
          if (!ImageIO.write(picture.image(), "png", stream)) {
            throw new IllegalStateException("no PNG writer in this JDK");
          }
        }
      });
      out.println("metope plot: wrote " + target + " (" + picture.image().getWidth() + "x"
          + picture.image().getHeight() + (options.blocksOnly() ? ""
              : ", " + field.label() + " from " + picture.min() + " to " + picture.max())
          + (particles == null ? "" : ", " + particles.count() + " particles of "
              + particles.swarm())
          + ")");
      return 0;
    } catch (InputError | DriverError e) {
      err.println("metope plot: " + e.getMessage());
      return 2;
    } catch (AWTError | UnsatisfiedLinkError | InternalError e) {
      err.println("metope plot: cannot draw text (" + e.getMessage() + "): install fontconfig"
          + " and a font, e.g. apt-get install fonts-dejavu-core");
      return 2;
    }
  }

  /** {@code run.out0.final.phdf} and {@code advected:1} give {@code run.out0.final.advected_1.png}. */
  static String defaultName(String fileName, String what) {
    String stem = fileName.endsWith(".phdf")
        ? fileName.substring(0, fileName.length() - ".phdf".length()) : fileName;
    return stem + "." + what.replaceAll("[^A-Za-z0-9_.-]", "_") + ".png";
  }

  static Options parse(String[] args) {
    Path file = null;
    String variable = null;
    int axis = -1;
    double value = 0;
    Path output = null;
    boolean blocks = false;
    String swarm = null;
    for (int n = 0; n < args.length; n++) {
      String a = args[n];
      switch (a) {
        case "--blocks" -> blocks = true;
        case "-o", "--slice", "--particles" -> {
          if (n + 1 >= args.length) {
            throw usage("option " + a + " needs a value");
          }
          String v = args[++n];
          if (a.equals("-o")) {
            output = Path.of(v);
          } else if (a.equals("--particles")) {
            swarm = v;
          } else {
            axis = sliceAxis(v);
            value = sliceValue(v);
          }
        }
        default -> {
          if (a.startsWith("-") && !a.matches("-[0-9.].*")) {
            throw usage("unknown option " + a);
          } else if (file == null) {
            file = Path.of(a);
          } else if (variable == null) {
            variable = a;
          } else {
            throw usage("unexpected argument " + a);
          }
        }
      }
    }
    if (file == null) {
      throw usage("no file given");
    }
    return new Options(file, variable, axis, value, output, blocks, swarm);
  }

  private static int sliceAxis(String spec) {
    if (!spec.matches("x[123]=.+")) {
      throw InputError.at("command line", "--slice " + spec, "x1=VALUE, x2=VALUE or x3=VALUE");
    }
    return spec.charAt(1) - '1';
  }

  private static double sliceValue(String spec) {
    try {
      double v = Double.parseDouble(spec.substring(3));
      if (Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw InputError.at("command line", "--slice " + spec, "a number after the = sign");
  }

  private static InputError usage(String what) {
    return new InputError(what + " (" + USAGE + ")");
  }
}
