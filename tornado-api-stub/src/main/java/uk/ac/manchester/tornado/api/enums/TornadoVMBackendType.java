package uk.ac.manchester.tornado.api.enums;

/** Stand-in: TornadoVM's device backends. */
public enum TornadoVMBackendType {
  /** OpenCL. */
  OPENCL,
  /** Metal. */
  METAL,
  /** PTX. */
  PTX,
  /** CUDA. */
  CUDA,
  /** SPIR-V. */
  SPIRV,
  /** Java. */
  JAVA,
  /** Virtual. */
  VIRTUAL
}
