/**
 * /api/tracking/conversion.js, for conversion confirmation pages. Reads the click id the click
 * script kept and reports the conversion through the keyless pixel of the Buddy origin it was
 * loaded from. `data-type` reports on load; `window.buddy.conversion(type, value?, options?)` on
 * demand, `options` being `{currency, customerId, eventId}` (CONTRACT §8).
 */
export const CONVERSION_SCRIPT = `(function(w,d){"use strict";
var K="buddy_bclickid",T="buddy_bclickid_ts",TTL=2592e6,b=w.buddy=w.buddy||{},s=d.currentScript;
var org=s&&s.getAttribute("data-org"),base=s?s.src.replace(/\\/api\\/tracking\\/conversion\\.js.*$/,""):"";
function id(){try{var l=w.localStorage,v=l.getItem(K),t=+l.getItem(T);return v&&t&&Date.now()-t<=TTL?v:null}catch(e){return null}}
b.conversion=function(type,value,o){var c=id();if(!c||!org||!type)return false;
var u=base+"/api/marketing/conversion/"+encodeURIComponent(c)+"?type="+encodeURIComponent(type)+"&org="+encodeURIComponent(org);
if(value!=null&&isFinite(value))u+="&value="+encodeURIComponent(value);
o=o||{};var k=["currency","customerId","eventId"];for(var n=0;n<k.length;n++){if(o[k[n]]!=null)u+="&"+k[n]+"="+encodeURIComponent(o[k[n]])}
var i=new Image(1,1);i.referrerPolicy="no-referrer";i.src=u;return true};
var t=s&&s.getAttribute("data-type");if(t)b.conversion(t);
})(window,document);
`;
