#ifndef LAMINA_CPANGO_SHIM_H
#define LAMINA_CPANGO_SHIM_H
#include <pango/pangocairo.h>
// Macros that do not import into Swift.
static const int LAMINA_PANGO_SCALE = PANGO_SCALE;

// From <pango/pangofc-fontmap.h> (libpangoft2), declared here because that
// header needs FreeType's: drops the fonts, fontsets and patterns a
// fontconfig font map keeps for every size it was asked for.
struct _PangoFcFontMap;
void pango_fc_font_map_cache_clear(struct _PangoFcFontMap *fcfontmap);

// Clears `map`'s caches when it is a fontconfig font map (Pango's cairo
// font map on Linux is one); returns whether it was.
static inline int lamina_pango_font_map_cache_clear(PangoFontMap *map) {
  GType fc = g_type_from_name("PangoFcFontMap");
  if (map == NULL || fc == 0 || !g_type_check_instance_is_a((GTypeInstance *)map, fc)) return 0;
  pango_fc_font_map_cache_clear((struct _PangoFcFontMap *)map);
  return 1;
}
#endif
