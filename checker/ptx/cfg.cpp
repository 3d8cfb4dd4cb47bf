#include "checker/ptx/cfg.h"

#include <algorithm>

namespace tilecamp::ptx {
namespace {

bool ends_block(const Instruction& instruction) {
  return instruction.opcode == Opcode::Bra || instruction.opcode == Opcode::Ret ||
         instruction.opcode == Opcode::Exit;
}

struct BasicBlocks {
  std::vector<uint32_t> start;           // first instruction of each block
  std::vector<uint32_t> block_of;        // instruction -> block
  std::vector<std::vector<int>> successors;  // block -> blocks; the exit node is start.size()
};

BasicBlocks build_blocks(const Function& function) {
  const auto& code = function.instructions;
  const uint32_t n = static_cast<uint32_t>(code.size());
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (uint32_t i = 0; i < n; ++i) {
    if (code[i].opcode == Opcode::Bra) leader[code[i].target] = true;
    if (ends_block(code[i])) leader[i + 1] = true;
  }
  BasicBlocks blocks;
  blocks.block_of.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) blocks.start.push_back(i);
    blocks.block_of[i] = static_cast<uint32_t>(blocks.start.size() - 1);
  }
  const int exit_node = static_cast<int>(blocks.start.size());
  blocks.successors.resize(blocks.start.size());
  for (size_t b = 0; b < blocks.start.size(); ++b) {
    uint32_t last = (b + 1 < blocks.start.size() ? blocks.start[b + 1] : n) - 1;
    const Instruction& end = code[last];
    auto& succ = blocks.successors[b];
    auto fallthrough = [&] {
      succ.push_back(last + 1 < n ? static_cast<int>(blocks.block_of[last + 1]) : exit_node);
    };
    if (end.opcode == Opcode::Bra) {  // a label before the closing brace leads out of the function
      succ.push_back(end.target < n ? static_cast<int>(blocks.block_of[end.target]) : exit_node);
      if (end.guard >= 0) fallthrough();
    } else if (end.opcode == Opcode::Ret || end.opcode == Opcode::Exit) {
      succ.push_back(exit_node);
      if (end.guard >= 0) fallthrough();
    } else {
      fallthrough();
    }
  }
  return blocks;
}

// Immediate post-dominators by the iterative algorithm of Cooper, Harvey and Kennedy, run on the
// reversed graph rooted at the exit node. Blocks that cannot reach the exit (infinite loops)
// get the exit node.
std::vector<int> immediate_post_dominators(const BasicBlocks& blocks) {
  const int exit_node = static_cast<int>(blocks.start.size());
  const int count = exit_node + 1;
  std::vector<std::vector<int>> predecessors(count);  // in the reversed graph: successors
  for (int b = 0; b < exit_node; ++b) {
    for (int s : blocks.successors[b]) predecessors[s].push_back(b);
  }
  // Postorder of the reversed graph from the exit.
  std::vector<int> order;
  std::vector<int> number(count, -1);
  std::vector<std::pair<int, size_t>> stack{{exit_node, 0}};
  std::vector<bool> seen(count, false);
  seen[exit_node] = true;
  while (!stack.empty()) {
    auto& [node, next_child] = stack.back();
    if (next_child < predecessors[node].size()) {
      int child = predecessors[node][next_child++];
      if (!seen[child]) {
        seen[child] = true;
        stack.emplace_back(child, 0);
      }
    } else {
      number[node] = static_cast<int>(order.size());
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<int> ipdom(count, -1);
  ipdom[exit_node] = exit_node;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (number[a] < number[b]) a = ipdom[a];
      while (number[b] < number[a]) b = ipdom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      int node = *it;
      if (node == exit_node) continue;
      int candidate = -1;
      for (int s : blocks.successors[node]) {  // successors are the reversed graph's predecessors
        if (ipdom[s] == -1) continue;
        candidate = candidate == -1 ? s : intersect(s, candidate);
      }
      if (candidate != -1 && ipdom[node] != candidate) {
        ipdom[node] = candidate;
        changed = true;
      }
    }
  }
  for (int b = 0; b < exit_node; ++b) {
    if (ipdom[b] == -1) ipdom[b] = exit_node;
  }
  return ipdom;
}

}  // namespace

std::vector<uint32_t> basic_block_starts(const Function& function) {
  if (function.instructions.empty()) return {};
  return build_blocks(function).start;
}

std::vector<uint32_t> compute_reconvergence_points(const Function& function) {
  const uint32_t n = static_cast<uint32_t>(function.instructions.size());
  std::vector<uint32_t> points(n, n);
  if (n == 0) return points;
  BasicBlocks blocks = build_blocks(function);
  std::vector<int> ipdom = immediate_post_dominators(blocks);
  const int exit_node = static_cast<int>(blocks.start.size());
  for (uint32_t i = 0; i < n; ++i) {
    int post = ipdom[blocks.block_of[i]];
    points[i] = post == exit_node ? n : blocks.start[post];
  }
  return points;
}

}  // namespace tilecamp::ptx
