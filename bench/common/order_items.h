// bench/common/order_items.h
//
// The benchmark data set: Order items of the relational-modeling seed
// example (PK "CUST#<n>", SK "ORDER#<date>#<n>", a few S and N attributes),
// 250 bytes each by DynamoDB's item-size rules, as engine Items and as
// DynamoDB JSON text. Item i is a pure function of i, so every benchmark
// (engine, raw RocksDB, api::Client, HTTP) reads and writes the same items.
//
// Header-only: bench/CMakeLists.txt builds one executable per *_bench.cc.

#ifndef DYNAROCK_BENCH_COMMON_ORDER_ITEMS_H_
#define DYNAROCK_BENCH_COMMON_ORDER_ITEMS_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/types.h"
#include "engine/value/number.h"

namespace dynarock::bench {

inline constexpr char kTableName[] = "Orders";
// Items of one customer form an item collection of this many orders.
inline constexpr int kOrdersPerCustomer = 4;
// DynamoDB item size of every OrderItem(i) (checked by the benchmarks).
inline constexpr int64_t kOrderItemBytes = 250;

struct OrderFields {
  std::string pk;          // CUST#00001234
  std::string sk;          // ORDER#2026-03-17#00004936
  std::string order_date;  // 2026-03-17T10:15:42Z
  std::string amount;      // 1234.56
  std::string quantity;    // 1..9
  std::string rep;         // REP#0042
  std::string status;      // OPEN / SHIPPED / DELIVERED / CANCELLED, all 9 bytes
  std::string ship_to;     // 64 bytes of address
  std::string note;        // padding to kOrderItemBytes
};

inline OrderFields OrderFieldsOf(int64_t i) {
  char buf[96];
  OrderFields f;
  std::snprintf(buf, sizeof(buf), "CUST#%08lld",
                static_cast<long long>(i / kOrdersPerCustomer));
  f.pk = buf;
  const int month = static_cast<int>(i % 12) + 1;
  const int day = static_cast<int>(i % 28) + 1;
  std::snprintf(buf, sizeof(buf), "ORDER#2026-%02d-%02d#%08lld", month, day,
                static_cast<long long>(i));
  f.sk = buf;
  std::snprintf(buf, sizeof(buf), "2026-%02d-%02dT%02d:%02d:%02dZ", month, day,
                static_cast<int>(i % 24), static_cast<int>(i % 60),
                static_cast<int>((i / 60) % 60));
  f.order_date = buf;
  // Six significant digits, never a trailing zero: 4 bytes as a Number.
  std::snprintf(buf, sizeof(buf), "%lld.%02lld",
                static_cast<long long>(1000 + i % 9000),
                static_cast<long long>(10 * (i % 10) + 1 + i % 9));
  f.amount = buf;
  f.quantity = std::to_string(1 + i % 9);
  std::snprintf(buf, sizeof(buf), "REP#%04lld", static_cast<long long>(i % 500));
  f.rep = buf;
  static const char* const kStatuses[] = {"OPEN_____", "SHIPPED__",
                                          "DELIVERED", "CANCELLED"};
  f.status = kStatuses[i % 4];
  std::snprintf(buf, sizeof(buf),
                "%05lld Warehouse Road, Springfield, IL 627%02lld, USA, Dock %03lld",
                static_cast<long long>(i % 100000), static_cast<long long>(i % 100),
                static_cast<long long>(i % 1000));
  f.ship_to = buf;
  f.ship_to.resize(64, ' ');
  // Names + values above are 191 bytes; the note brings the item to 250.
  f.note.assign(59, 'n');
  return f;
}

// Order item i (0 <= i < 10^8).
inline Item OrderItem(int64_t i) {
  OrderFields f = OrderFieldsOf(i);
  auto number = [](const std::string& text) {
    Result<Number> n = Number::Parse(text);
    if (!n.ok()) std::abort();
    return AttributeValue::N(*n);
  };
  Item item;
  item.emplace("PK", AttributeValue::S(f.pk));
  item.emplace("SK", AttributeValue::S(f.sk));
  item.emplace("OrderDate", AttributeValue::S(f.order_date));
  item.emplace("Amount", number(f.amount));
  item.emplace("Quantity", number(f.quantity));
  item.emplace("Rep", AttributeValue::S(f.rep));
  item.emplace("Status", AttributeValue::S(f.status));
  item.emplace("ShipTo", AttributeValue::S(f.ship_to));
  item.emplace("Note", AttributeValue::S(f.note));
  return item;
}

// The primary key of order item i.
inline Item OrderKey(int64_t i) {
  OrderFields f = OrderFieldsOf(i);
  Item key;
  key.emplace("PK", AttributeValue::S(f.pk));
  key.emplace("SK", AttributeValue::S(f.sk));
  return key;
}

// Order item i in DynamoDB JSON ({"PK":{"S":"..."},...}).
inline std::string OrderItemJson(int64_t i) {
  OrderFields f = OrderFieldsOf(i);
  return "{\"PK\":{\"S\":\"" + f.pk + "\"},\"SK\":{\"S\":\"" + f.sk +
         "\"},\"OrderDate\":{\"S\":\"" + f.order_date +
         "\"},\"Amount\":{\"N\":\"" + f.amount + "\"},\"Quantity\":{\"N\":\"" +
         f.quantity + "\"},\"Rep\":{\"S\":\"" + f.rep +
         "\"},\"Status\":{\"S\":\"" + f.status + "\"},\"ShipTo\":{\"S\":\"" +
         f.ship_to + "\"},\"Note\":{\"S\":\"" + f.note + "\"}}";
}

// The primary key of order item i in DynamoDB JSON.
inline std::string OrderKeyJson(int64_t i) {
  OrderFields f = OrderFieldsOf(i);
  return "{\"PK\":{\"S\":\"" + f.pk + "\"},\"SK\":{\"S\":\"" + f.sk + "\"}}";
}

// xorshift64*: a fast, deterministic key chooser shared by every variant,
// so that engine and raw benchmarks visit the same key sequence.
class KeyChooser {
 public:
  explicit KeyChooser(int64_t n, uint64_t seed = 0x9E3779B97F4A7C15ull)
      : n_(static_cast<uint64_t>(n)), state_(seed) {}
  int64_t Next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return static_cast<int64_t>((state_ * 0x2545F4914F6CDD1Dull) % n_);
  }

 private:
  uint64_t n_;
  uint64_t state_;
};

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_ORDER_ITEMS_H_
