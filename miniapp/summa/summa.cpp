// summa.cpp — the non-template parts of summa.hpp: the grid's communicators
// (GridComm), Open MPI's CUDA awareness, the panel paths' names and the
// node-locality test.
#include "summa/summa.hpp"


namespace mmapp {

GridComm::GridComm(MPI_Comm world, const GridShape& g) : world_(world), shape_(g) {
  int size = 0;
  MPI_Comm_size(world, &size);
  MPI_Comm_rank(world, &rank_);
  if (size != g.size())
    throw std::invalid_argument("GridComm: a " + std::to_string(g.p) + "x" + std::to_string(g.q) + " grid over " +
                                std::to_string(size) + " ranks");
  coords_ = grid_coords(g, rank_);
  MPI_Comm_split(world, coords_.prow, coords_.pcol, &row_);
  MPI_Comm_split(world, coords_.pcol, coords_.prow, &col_);
}

GridComm::~GridComm() {
  if (row_ != MPI_COMM_NULL) MPI_Comm_free(&row_);
  if (col_ != MPI_COMM_NULL) MPI_Comm_free(&col_);
}

int mpi_cuda_support() {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  return MPIX_Query_cuda_support() ? 1 : 0;
#else
  return -1;
#endif
}

const char* describe(PanelPath p) {
  switch (p) {
    case PanelPath::host: return "host";
    case PanelPath::cuda_aware: return "cuda-aware";
    case PanelPath::staged: return "staged through pinned host memory";
    case PanelPath::shared: return "shared: an MPI shared-memory window (one node)";
  }
  return "?";
}

int comm_is_node_local(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n = 0, all = 0;
  MPI_Comm_size(node, &n);
  MPI_Comm_size(comm, &all);
  MPI_Comm_free(&node);
  return n == all ? 1 : 0;
}

}  // namespace mmapp
