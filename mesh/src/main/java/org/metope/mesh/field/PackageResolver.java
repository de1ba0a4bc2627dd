package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the declarations of several packages into one field list, following Parthenon's roles
 * (see {@link Packages#resolve} for the rules and the order).
 */
final class PackageResolver {
  /** One declaration: a dense field or a sparse pool, by one package. */
  private record Declaration(StateDescriptor pkg, String name, Object what) {
    Metadata metadata() {
      return what instanceof SparsePool pool ? pool.sharedMetadata() : (Metadata) what;
    }

    String describe() {
      return "package " + pkg.label() + " (" + metadata() + ")";
    }
  }

  private final List<StateDescriptor> packages;
  private final List<Declaration> ordered = new ArrayList<>();
  private final Map<String, Declaration> providers = new HashMap<>();
  private final Map<String, Declaration> firstOverridable = new HashMap<>();
  private final List<Declaration> requirements = new ArrayList<>();

  private PackageResolver(List<StateDescriptor> packages) {
    this.packages = packages;
  }

  static ResolvedState resolve(List<StateDescriptor> packages) {
    PackageResolver resolver = new PackageResolver(packages);
    resolver.categorize();
    resolver.checkRequirements();
    return new ResolvedState(resolver.expand(resolver.selected()));
  }

  private void categorize() {
    for (StateDescriptor pkg : packages) {
      for (String name : pkg.declarationNames()) {
        Declaration d = new Declaration(pkg, name, pkg.declaration(name));
        ordered.add(d);
        switch (d.metadata().role()) {
          case PROVIDES -> provide(d);
          case OVERRIDABLE -> offer(d);
          case REQUIRES -> requirements.add(d);
          default -> { }
        }
      }
    }
  }

  private void provide(Declaration d) {
    Declaration earlier = providers.putIfAbsent(d.name, d);
    if (earlier != null) {
      throw new IllegalStateException("field " + d.name + " is provided by both "
          + earlier.describe() + " and " + d.describe() + ": keep one PROVIDES declaration and"
          + " make the others REQUIRES, OVERRIDABLE or PRIVATE");
    }
  }

  private void offer(Declaration d) {
    Declaration earlier = firstOverridable.putIfAbsent(d.name, d);
    if (earlier != null && !sameDeclaration(earlier, d)) {
      throw new IllegalStateException("field " + d.name + " is declared OVERRIDABLE with"
          + " conflicting metadata by " + earlier.describe() + " and " + d.describe()
          + ": overridable declarations of one field must agree");
    }
  }

  private static boolean sameDeclaration(Declaration a, Declaration b) {
    if (a.what instanceof SparsePool pa && b.what instanceof SparsePool pb) {
      if (!pa.pool().keySet().equals(pb.pool().keySet())) {
        return false;
      }
      for (Map.Entry<Integer, Metadata> e : pa.pool().entrySet()) {
        if (!e.getValue().compatible(pb.pool().get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a.what instanceof Metadata ma && b.what instanceof Metadata mb && ma.compatible(mb);
  }

  private void checkRequirements() {
    for (Declaration d : requirements) {
      if (!providers.containsKey(d.name) && !firstOverridable.containsKey(d.name)) {
        List<String> labels = new ArrayList<>();
        for (StateDescriptor p : packages) {
          labels.add(p.label());
        }
        throw new IllegalStateException("package " + d.pkg.label() + " requires field " + d.name
            + ", but no package provides it (packages: " + String.join(", ", labels) + ")");
      }
    }
  }

  /** The declarations that make fields, in package order then declaration order. */
  private List<Declaration> selected() {
    List<Declaration> chosen = new ArrayList<>();
    for (Declaration d : ordered) {
      switch (d.metadata().role()) {
        case PRIVATE, PROVIDES -> chosen.add(d);
        case OVERRIDABLE -> {
          if (!providers.containsKey(d.name) && firstOverridable.get(d.name) == d) {
            chosen.add(d);
          }
        }
        default -> { }
      }
    }
    return chosen;
  }

  private List<FieldInfo> expand(List<Declaration> chosen) {
    List<FieldInfo> fields = new ArrayList<>();
    Map<String, Declaration> owners = new HashMap<>();
    for (Declaration d : chosen) {
      boolean isPrivate = d.metadata().role() == MetadataFlag.PRIVATE;
      String base = isPrivate ? d.pkg.label() + "::" + d.name : d.name;
      if (d.what instanceof SparsePool pool) {
        for (Map.Entry<Integer, Metadata> e : pool.pool().entrySet()) {
          String name = SparsePool.fieldName(base, e.getKey());
          claim(owners, name, d);
          fields.add(new FieldInfo(fields.size(), name, base, e.getKey(), e.getValue(),
              d.pkg.label()));
        }
      } else {
        claim(owners, base, d);
        fields.add(new FieldInfo(fields.size(), base, base, FieldInfo.NO_SPARSE_ID,
            d.metadata(), d.pkg.label()));
      }
    }
    return fields;
  }

  /** A dense {@code foo_3} and sparse pool {@code foo} id 3 of two packages would share a name. */
  private static void claim(Map<String, Declaration> owners, String name, Declaration d) {
    Declaration earlier = owners.putIfAbsent(name, d);
    if (earlier != null) {
      throw new IllegalStateException("field name " + name + " is made twice: by "
          + kind(earlier) + " of package " + earlier.pkg.label() + " and by " + kind(d)
          + " of package " + d.pkg.label());
    }
  }

  private static String kind(Declaration d) {
    return (d.what instanceof SparsePool ? "sparse pool " : "dense field ") + d.name;
  }
}
