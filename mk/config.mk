# mk/config.mk - toolchain, GPU architecture and dependency detection.
# Everything here can be overridden on the command line (make CUDA_ARCH="80 90").

BUILD ?= build
KIT_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

# ---- CUDA toolkit ----------------------------------------------------------
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),/usr/local/cuda/bin/nvcc)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
CUDA_LIBDIR ?= $(firstword $(wildcard $(CUDA_HOME)/lib64/libcudart.so $(CUDA_HOME)/targets/*/lib/libcudart.so))
CUDA_LIBDIR := $(patsubst %/,%,$(dir $(CUDA_LIBDIR)))
# CUPTI (kernel records for the device-execution check) sits in lib64 or extras/CUPTI.
CUPTI_INC ?= $(patsubst %/,%,$(dir $(firstword $(wildcard $(CUDA_HOME)/include/cupti.h $(CUDA_HOME)/extras/CUPTI/include/cupti.h))))
CUPTI_LIBDIR ?= $(patsubst %/,%,$(dir $(firstword $(wildcard $(CUDA_HOME)/lib64/libcupti.so $(CUDA_HOME)/targets/*/lib/libcupti.so $(CUDA_HOME)/extras/CUPTI/lib64/libcupti.so))))
COMPUTE_SANITIZER ?= $(or $(wildcard $(CUDA_HOME)/bin/compute-sanitizer),$(shell command -v compute-sanitizer 2>/dev/null))
# Nsight Compute's command line (kitgrade --profile, make labNN PROFILE=1); optional.
NCU ?= $(or $(wildcard $(CUDA_HOME)/bin/ncu),$(shell command -v ncu 2>/dev/null))

# ---- GPU architecture --------------------------------------------------------
# -arch=native when a CUDA device answers; otherwise the oldest and the newest
# architecture the kit supports (Turing, Hopper): nothing can run on such a
# machine, the build proves that every file compiles for both ends (code
# conditional on __CUDA_ARCH__ included) at two fifths of the cost of all five
# (75 80 86 89 90: make CUDA_ARCH="75 80 86 89 90" for a build to copy to
# other machines).  The probe is the helper nvcc itself uses for -arch=native,
# bounded by a timeout so a machine with a broken or missing driver cannot
# hang the build.
KIT_ARCH_LIST := 75 90
ifeq ($(origin CUDA_ARCH),undefined)
  KIT_DEVICE_ARCH := $(shell timeout 20 $(CUDA_HOME)/bin/__nvcc_device_query 2>/dev/null)
  CUDA_ARCH := $(if $(strip $(KIT_DEVICE_ARCH)),native,$(KIT_ARCH_LIST))
endif
ifeq ($(strip $(CUDA_ARCH)),native)
  ARCH_FLAGS := -arch=native
else
  ARCH_FLAGS := $(foreach a,$(CUDA_ARCH),-gencode=arch=compute_$(a),code=sm_$(a)) \
                -gencode=arch=compute_$(lastword $(CUDA_ARCH)),code=compute_$(lastword $(CUDA_ARCH))
endif

# ---- flags -------------------------------------------------------------------
WARN := -Wall -Wextra
ifeq ($(WERROR),1)
  WARN += -Werror
endif
CSTD := -std=c11 -D_GNU_SOURCE
CFLAGS ?= -O2 -g
# OpenMP (GCC's libgomp): the kit's own host work on large arrays - input
# generation, the checkers' references - runs on several cores (kit_threads()).
OPENMP := -fopenmp
OPENMP_LINK := -lgomp
KIT_CFLAGS := $(CSTD) $(WARN) $(OPENMP) -I$(KIT_ROOT)/common/include -I$(CUDA_HOME)/include
# Host warnings through nvcc too; -lineinfo so compute-sanitizer can name lines.
NVCCFLAGS ?= -O2
comma := ,
NVCC_WARN := -Xcompiler=-Wall,-Wextra$(if $(filter 1,$(WERROR)),$(comma)-Werror)
# Flags the grader also uses for a submission's file (kit.ini: nvcc_flags + arch_flags).
KIT_NVCCFLAGS_BASE := -std=c++17 -lineinfo $(NVCC_WARN)
KIT_NVCCFLAGS := $(KIT_NVCCFLAGS_BASE) $(ARCH_FLAGS) -I$(KIT_ROOT)/common/include $(if $(CUPTI_INC),-I$(CUPTI_INC))
CUDART_STATIC := -L$(CUDA_LIBDIR) -lcudart_static -ldl -lpthread -lrt
CUPTI_LIBS := $(if $(CUPTI_LIBDIR),-L$(CUPTI_LIBDIR) -lcupti -Xlinker -rpath=$(CUPTI_LIBDIR))

# ---- distribution libraries (pkg-config) ---------------------------------------
# Their flags (PKG_CFLAGS, CHECK_LIBS, CJSON_LIBS, INIH_LIBS) are written to
# $(BUILD)/deps.mk once mk/deps has installed them: see the Makefile.
PKGS := check libcjson inih
