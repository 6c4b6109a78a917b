/* OpenBLAS for the BLAS references (matmul_blas.c, kmeans_ad_blas.c):
 * the CBLAS interface and the number of threads. The sequential build
 * (without -fopenmp) runs OpenBLAS on one thread, the OpenMP build on
 * omp_get_max_threads() threads, so both follow OMP_NUM_THREADS as the
 * other references' builds do (OPENBLAS_NUM_THREADS is overridden). */
#ifndef BLAS_H
#define BLAS_H

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Declared by OpenBLAS's cblas.h; repeated for other cblas.h headers. */
void openblas_set_num_threads(int num_threads);

static inline void blas_threads(void) {
#ifdef _OPENMP
  openblas_set_num_threads(omp_get_max_threads());
#else
  openblas_set_num_threads(1);
#endif
}

#endif
